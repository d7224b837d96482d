import type { TObject } from 'typebox';
import { providerUnavailable } from '../errors.js';
import { apple } from './apple.js';
import { facebook } from './facebook.js';
import { github } from './github.js';
import type { ProviderHttp } from './http.js';
import { oidc } from './oidc.js';
import { twitter } from './twitter.js';
import type {
  IdentityProvider,
  NormalisedIdentity,
  ProviderSettings,
  ProviderType,
  ServiceOf,
  UserCredentials,
} from './types.js';

/**
 * Every provider type, by the `type` a service entry names. Adding a provider type is one module
 * (its keys, defaults, avatar hosts and verification) and one line here.
 */
export const PROVIDER_TYPES = { twitter, facebook, github, oidc, apple } as const;

type ProviderTypes = typeof PROVIDER_TYPES;
export type ServiceType = keyof ProviderTypes;
export const SERVICE_TYPES = Object.keys(PROVIDER_TYPES) as ServiceType[];

/** A service entry of the services file, validated by its type's schema, with its name. */
export type ServiceConfig = {
  [K in ServiceType]: ServiceOf<ProviderTypes[K]['schema']>;
}[ServiceType];

/** The provider type of a `type` key, or undefined when no module has that name. */
export function providerTypeOf(type: unknown): ProviderType | undefined {
  return typeof type === 'string' && Object.hasOwn(PROVIDER_TYPES, type)
    ? (PROVIDER_TYPES[type as ServiceType] as unknown as ProviderType<TObject>)
    : undefined;
}

/** A configured service: its application credentials and the provider module that verifies users. */
export interface ConfiguredService {
  name: string;
  type: ServiceType;
  appId: string;
  appSecret: string;
  /** Hosts `/avatar/{username}` may redirect to: the entry's `avatarHosts`, else the type's. */
  avatarHosts: readonly string[];
  /** The server URL Rocket.Chat shows for a custom OAuth service; undefined for built-in ones. */
  customServerUrl: string | undefined;
  provider: IdentityProvider;
}

export type ServiceRegistry = ReadonlyMap<string, ConfiguredService>;

export function buildRegistry(
  services: readonly ServiceConfig[],
  http: ProviderHttp,
  settings: ProviderSettings,
): ServiceRegistry {
  return new Map(
    services.map((service) => {
      const type = PROVIDER_TYPES[service.type] as unknown as ProviderType<TObject>;
      return [
        service.name,
        {
          name: service.name,
          type: service.type,
          appId: service.appId,
          appSecret: service.appSecret,
          avatarHosts: service.avatarHosts ?? type.defaultAvatarHosts(service),
          customServerUrl: type.customServerUrl?.(service),
          provider: type.create(service, http, settings),
        },
      ];
    }),
  );
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: the characters removed from a name
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/g;

/** A UTF-16 surrogate without its other half: no character, and no UTF-8 or JSON text holds it. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * The text as UTF-8 can carry it: each lone surrogate becomes U+FFFD, as the database driver
 * already turns it when it encodes a parameter, so every way an identity is stored agrees
 * (PostgreSQL's jsonb refuses the `\ud800` escape JSON.stringify writes for one).
 */
const wellFormed = <T extends string | undefined>(text: T): T =>
  text?.replace(LONE_SURROGATE, '\ufffd') as T;

/** The longest display name kept, in UTF-16 code units; a longer one is cut between characters. */
export const NAME_MAX = 256;
/** The longest picture URL kept; a longer one is dropped (the user keeps the picture they had). */
export const AVATAR_URL_MAX = 2048;
/** The longest e-mail address (RFC 5321 4.5.3.1.3: a 256-octet path, less its `<>`). */
export const EMAIL_MAX = 254;
/** The longest local part of an address (RFC 5321 4.5.3.1.1). */
const EMAIL_LOCAL_MAX = 64;

/**
 * Whether `address` can be an addr-spec (`local@domain`, OpenID Connect Core 5.1): at most
 * EMAIL_MAX characters, one `@` with a local part of at most 64 and a domain of dot-separated
 * labels around it, and none of whitespace, control characters or `<>()[]\,;:"` (which an
 * unquoted address never holds). Quoted local parts are not taken: no provider hands them out.
 */
export function plausibleEmail(address: string): boolean {
  if (address.length > EMAIL_MAX) return false;
  const at = address.indexOf('@');
  if (at < 1 || at !== address.lastIndexOf('@') || at > EMAIL_LOCAL_MAX) return false;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the characters refused in an address
  if (/[\s\u0000-\u001f\u007f-\u009f<>()[\]\\,;:"]/u.test(address)) return false;
  const local = address.slice(0, at);
  const domain = address.slice(at + 1);
  const dotted = (text: string) => text.split('.').every((part) => part !== '');
  return dotted(local) && domain !== '' && dotted(domain);
}

/**
 * `name` cut to at most NAME_MAX UTF-16 code units at a grapheme boundary (a letter with its
 * accents, an emoji sequence is never split); undefined when not even its first grapheme fits.
 */
export function boundedName(name: string): string | undefined {
  if (name.length <= NAME_MAX) return name;
  let end = 0;
  for (const { index, segment } of new Intl.Segmenter(undefined, {
    granularity: 'grapheme',
  }).segment(name)) {
    if (index + segment.length > NAME_MAX) break;
    end = index + segment.length;
  }
  return end === 0 ? undefined : name.slice(0, end);
}

/**
 * Who the credentials belong to, as the service can keep it. PostgreSQL refuses a NUL character
 * in text, and most providers let anyone put one in their profile: the display name is kept
 * without control characters (a line break or an escape has no place in it either), and an id,
 * handle, email or picture URL holding a NUL is an answer no account can be made from (502).
 * Every text is made well-formed (a lone surrogate in a JSON answer is valid JSON, but no text).
 * Profile fields are bounded, whatever the provider: a name is cut to NAME_MAX, a picture URL
 * longer than AVATAR_URL_MAX and an e-mail address that is not plausibly one (plausibleEmail)
 * are dropped, each with a warning through `warn` that names the field, never its value. `verify`
 * replaces the module's own for the redirect flow's OpenID Connect codes (code-flow.ts, `identify`).
 */
export async function verifiedIdentity(
  service: ConfiguredService,
  credentials: UserCredentials,
  signal: AbortSignal,
  warn: (message: string) => void = () => {},
  /** Who the credentials belong to; the service's `verify` unless the redirect flow says. */
  verify: (credentials: UserCredentials, signal: AbortSignal) => Promise<NormalisedIdentity> = (
    given,
    shared,
  ) => service.provider.verify(given, shared),
): Promise<NormalisedIdentity> {
  const identity = await verify(credentials, signal);
  for (const field of ['id', 'username', 'email', 'avatarUrl'] as const) {
    if (identity[field]?.includes('\u0000')) {
      throw providerUnavailable(
        `The identity provider "${service.name}" answered a ${field} holding a NUL character`,
      );
    }
  }
  const dropped = (field: string, why: string) =>
    warn(`identity provider "${service.name}" answered ${field} ${why}; not kept`);
  const cleanName = wellFormed(identity.name?.replace(CONTROL_CHARACTERS, ''));
  const name = cleanName ? boundedName(cleanName) : undefined;
  if (cleanName && cleanName.length > NAME_MAX) {
    warn(
      `identity provider "${service.name}" answered a name of ${cleanName.length} characters; cut to ${name?.length ?? 0}`,
    );
  }
  let email = wellFormed(identity.email);
  if (email !== undefined && !plausibleEmail(email)) {
    dropped(`an e-mail address of ${email.length} characters`, 'that is not an address');
    email = undefined;
  }
  let avatarUrl = wellFormed(identity.avatarUrl);
  if (avatarUrl !== undefined && avatarUrl.length > AVATAR_URL_MAX) {
    dropped(`a picture URL of ${avatarUrl.length} characters`, `(at most ${AVATAR_URL_MAX})`);
    avatarUrl = undefined;
  }
  return {
    ...identity,
    provider: wellFormed(identity.provider),
    id: wellFormed(identity.id),
    name: name === '' ? undefined : name,
    username: wellFormed(identity.username),
    email,
    emailVerified: email === undefined ? false : identity.emailVerified,
    avatarUrl,
  };
}
