/**
 * Tracing is on when OTEL_TRACES_EXPORTER names an exporter (`otlp`, `console`) and
 * OTEL_SDK_DISABLED is not `true`; otherwise it is off and the OpenTelemetry SDK is never loaded
 * (nothing patched, nothing exported). Every other setting is the SDK's own OTEL_* variable
 * (OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_PROTOCOL, OTEL_SERVICE_NAME, OTEL_TRACES_SAMPLER...).
 */
export function tracingRequested(env: Record<string, string | undefined>): boolean {
  const exporter = env.OTEL_TRACES_EXPORTER?.trim();
  return (
    env.OTEL_SDK_DISABLED?.trim().toLowerCase() !== 'true' && !!exporter && exporter !== 'none'
  );
}
