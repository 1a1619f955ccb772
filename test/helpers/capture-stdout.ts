import fs from 'node:fs';

/**
 * Captures what the app logs: pino writes to fd 1 through sonic-boom (fs.write / fs.writeSync),
 * not process.stdout.write, so all three are intercepted for fd 1 (and nothing else) until
 * `restore`. Run the app at LOG_LEVEL=info or debug to see its lines.
 */
export function captureStdout(): { text: () => string; restore: () => void } {
  const chunks: string[] = [];
  const decode = (data: unknown) =>
    typeof data === 'string' ? data : Buffer.from(data as Uint8Array).toString('utf8');
  const realWrite = fs.write;
  const realWriteSync = fs.writeSync;
  const write = jest.spyOn(fs, 'write').mockImplementation(((
    fd: number,
    data: unknown,
    ...rest: unknown[]
  ) => {
    if (fd !== 1) return (realWrite as (...args: unknown[]) => void)(fd, data, ...rest);
    chunks.push(decode(data));
    const callback = rest[rest.length - 1];
    if (typeof callback === 'function')
      process.nextTick(() => callback(null, Buffer.byteLength(decode(data))));
  }) as never);
  const writeSync = jest.spyOn(fs, 'writeSync').mockImplementation(((
    fd: number,
    data: unknown,
    ...rest: unknown[]
  ) => {
    if (fd !== 1) return (realWriteSync as (...args: unknown[]) => number)(fd, data, ...rest);
    chunks.push(decode(data));
    return Buffer.byteLength(decode(data));
  }) as never);
  const stdout = jest.spyOn(process.stdout, 'write').mockImplementation(((data: unknown) => {
    chunks.push(decode(data));
    return true;
  }) as never);
  return {
    text: () => chunks.join(''),
    restore: () => {
      write.mockRestore();
      writeSync.mockRestore();
      stdout.mockRestore();
    },
  };
}
