import type { Provider } from '@nestjs/common';
import type { ConfigFactory, ConfigFactoryKeyHost, ConfigType } from '@nestjs/config';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any namespace's factory
type Namespace = ConfigFactory & ConfigFactoryKeyHost<any>;

/** The class a namespace is injected by: never instantiated, only a token with the right type. */
export type ConfigToken<N extends Namespace> = abstract new () => ConfigType<N>;

const tokens = new Map<string | symbol, ConfigToken<Namespace>>();

/**
 * A config namespace as a DI token of its own type, so that a constructor names it once:
 * `constructor(private readonly config: AuthConfig)` injects what `@Inject(authConfig.KEY)`
 * does. Each config file exports its token under its type's name (`export const AuthConfig =
 * configToken(authConfig)`); ConfigTokensModule provides it as the namespace's parsed object.
 * Import it as a value (not `import type`): the parameter's type is what Nest reads.
 */
export function configToken<N extends Namespace>(namespace: N): ConfigToken<N> {
  let token = tokens.get(namespace.KEY);
  if (!token) {
    token = class {} as unknown as ConfigToken<Namespace>;
    Object.defineProperty(token, 'name', { value: String(namespace.KEY) });
    tokens.set(namespace.KEY, token);
  }
  return token as ConfigToken<N>;
}

/** Each namespace's token, provided as the object ConfigModule parsed for its key. */
export function configTokenProviders(namespaces: readonly Namespace[]): Provider[] {
  return namespaces.map((namespace) => ({
    provide: configToken(namespace),
    useFactory: (config: unknown) => config,
    inject: [namespace.KEY],
  }));
}
