import { v7 as uuidv7 } from 'uuid';
import type { AnyDatabase } from '../src/db/schema.js';
import { insertMetrics, type MetricInput } from '../src/metrics/repository.js';
import { DEVICE_STATUSES } from '../src/resources/definitions/devices.js';

/**
 * A realistic inventory, generated deterministically from a seed and written through the
 * service's own data layer (its Kysely instance, its tables, its constraints): a few hundred
 * sites, N devices with skewed (Zipf-like) vendors, models, roles and statuses so that filters
 * hit both common and rare values, two interfaces per device, VLANs, links, events and metrics.
 */

export interface DatasetShape {
  devices: number;
  locations: number;
  vlans: number;
  /** Metric samples per device (the overview shows the latest one of each). */
  metricsPerDevice: number;
  /** Events per device, on average. */
  eventsPerDevice: number;
}

export function datasetShape(devices: number): DatasetShape {
  return {
    devices,
    locations: Math.max(10, Math.min(400, Math.round(devices / 250))),
    vlans: Math.min(4094, Math.max(10, Math.round(devices / 100))),
    metricsPerDevice: 2,
    eventsPerDevice: 1,
  };
}

export interface LoadedDataset {
  shape: DatasetShape;
  /** Rows written per table. */
  rows: Record<string, number>;
  seconds: number;
}

/** Mulberry32: a small, fast PRNG; the same seed gives the same data set. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Picks item k with probability proportional to 1 / (k + 1)^exponent. */
function zipf<T>(items: readonly T[], exponent: number, next: () => number) {
  const weights = items.map((_, k) => 1 / (k + 1) ** exponent);
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  let running = 0;
  const cumulative = weights.map((weight) => {
    running += weight / total;
    return running;
  });
  return (): T => {
    const u = next();
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((cumulative[middle] ?? 1) < u) low = middle + 1;
      else high = middle;
    }
    return items[low] as T;
  };
}

export const VENDOR_MODELS: Readonly<Record<string, readonly string[]>> = {
  Cisco: ['Catalyst 9300', 'Catalyst 9500', 'Nexus 9336C', 'ISR 4451', 'ASR 1001-X', 'C8300'],
  Juniper: ['EX4300', 'QFX5120', 'MX204', 'SRX345', 'EX2300'],
  Arista: ['7050X3', '7280R3', '720XP', '7020R'],
  'HPE Aruba': ['CX 6300', 'CX 8325', '2930F'],
  Nokia: ['7750 SR-1', '7250 IXR', '7220 IXR-D2'],
  Huawei: ['CE6881', 'S5735', 'NE40E'],
  Fortinet: ['FortiGate 100F', 'FortiSwitch 448E'],
  'Palo Alto Networks': ['PA-3220', 'PA-5450'],
  MikroTik: ['CCR2004', 'CRS326'],
  Ubiquiti: ['EdgeRouter 4', 'USW-Pro-48'],
  'Extreme Networks': ['X465', 'SLX 9150'],
  Dell: ['S5248F-ON', 'Z9264F-ON'],
  Ciena: ['5170'],
  Adtran: ['NetVanta 1638'],
};
const VENDORS = Object.keys(VENDOR_MODELS);
const OS_BY_VENDOR: Readonly<Record<string, string>> = {
  Cisco: 'IOS-XE',
  Juniper: 'Junos',
  Arista: 'EOS',
  'HPE Aruba': 'AOS-CX',
  Nokia: 'SR OS',
  Huawei: 'VRP',
  Fortinet: 'FortiOS',
  'Palo Alto Networks': 'PAN-OS',
  MikroTik: 'RouterOS',
  Ubiquiti: 'EdgeOS',
  'Extreme Networks': 'EXOS',
  Dell: 'OS10',
  Ciena: 'SAOS',
  Adtran: 'AOS',
};
const ROLES = ['access', 'distribution', 'core', 'edge', 'firewall', 'wan', 'oob', 'spine'];
const CITIES: ReadonlyArray<readonly [string, string]> = [
  ['Frankfurt', 'DE'],
  ['Amsterdam', 'NL'],
  ['London', 'GB'],
  ['Paris', 'FR'],
  ['Ashburn', 'US'],
  ['Singapore', 'SG'],
  ['Tokyo', 'JP'],
  ['Sydney', 'AU'],
  ['São Paulo', 'BR'],
  ['Johannesburg', 'ZA'],
  ['Oslo', 'NO'],
  ['Madrid', 'ES'],
];
const SPEEDS: ReadonlyArray<readonly [string, number]> = [
  ['1Gbps', 1000],
  ['10Gbps', 10_000],
  ['25Gbps', 25_000],
  ['100Gbps', 100_000],
  ['2.5Gbps', 2500],
  ['400Gbps', 400_000],
];
const SEVERITIES = ['info', 'warning', 'minor', 'major', 'critical'];
const EVENT_TYPES = ['link_down', 'link_up', 'config_change', 'reboot', 'high_cpu', 'bgp_flap'];

type Row = Record<string, unknown>;

/** Rows per INSERT: well under PostgreSQL's 65,535 bound parameters for the widest table. */
const BATCH_ROWS = 2000;

async function insertAll(db: AnyDatabase, table: string, rows: Iterable<Row>): Promise<number> {
  let written = 0;
  // One transaction per table: one commit (one WAL flush) instead of one per batch.
  await db.transaction().execute(async (trx) => {
    let batch: Row[] = [];
    for (const row of rows) {
      batch.push(row);
      if (batch.length === BATCH_ROWS) {
        await trx.insertInto(table).values(batch).execute();
        written += batch.length;
        batch = [];
      }
    }
    if (batch.length > 0) {
      await trx.insertInto(table).values(batch).execute();
      written += batch.length;
    }
  });
  return written;
}

const pad = (value: number, width: number) => String(value).padStart(width, '0');

/** Device tags: an environment, a data centre, and now and then a few more. */
const ENVIRONMENT_TAGS = ['prod', 'staging', 'lab'];
const SITE_TAGS = ['dc1', 'dc2', 'dc3', 'edge-pop'];
const EXTRA_TAGS = ['pci', 'monitored', 'core', 'legacy', 'ipv6'];

/** Fills an empty, migrated inventory with the data set of `shape`. */
export async function loadDataset(
  db: AnyDatabase,
  shape: DatasetShape,
  seed = 42,
): Promise<LoadedDataset> {
  const started = performance.now();
  const next = random(seed);
  const pickVendor = zipf(VENDORS, 1.1, next);
  const pickStatus = zipf(DEVICE_STATUSES, 1.8, next);
  const pickRole = zipf(ROLES, 1.0, next);
  const pickSpeed = zipf(SPEEDS, 1.2, next);
  const pickSeverity = zipf(SEVERITIES, 1.3, next);
  const pickEventType = zipf(EVENT_TYPES, 1.0, next);
  const pickEnvironment = zipf(ENVIRONMENT_TAGS, 1.2, next);
  const pickSite = zipf(SITE_TAGS, 1.0, next);
  const modelPickers = Object.fromEntries(
    VENDORS.map((vendor) => [vendor, zipf(VENDOR_MODELS[vendor] ?? [], 0.9, next)]),
  );
  const rows: Record<string, number> = {};

  const locationIds = Array.from({ length: shape.locations }, () => uuidv7());
  const pickLocation = zipf(locationIds, 0.6, next);
  rows.locations = await insertAll(
    db,
    'locations',
    locationIds.map((id, index) => {
      const [city, country] = CITIES[index % CITIES.length] ?? ['Oslo', 'NO'];
      return {
        id,
        name: `site-${pad(index + 1, 4)}`,
        city,
        country,
        address: `${index + 1} Datacenter Road, ${city}`,
      };
    }),
  );

  rows.vlans = await insertAll(
    db,
    'vlans',
    Array.from({ length: shape.vlans }, (_, index) => ({
      id: uuidv7(),
      vlan_id: index + 1,
      name: `vlan-${index + 1}`,
      description: index % 3 === 0 ? 'user access' : null,
      status: index % 10 === 0 ? 'reserved' : 'active',
    })),
  );

  const deviceIds = Array.from({ length: shape.devices }, () => uuidv7());
  const now = Date.now();
  rows.devices = await insertAll(
    db,
    'devices',
    (function* () {
      for (let index = 0; index < shape.devices; index++) {
        const vendor = pickVendor();
        const role = pickRole();
        const location = pickLocation();
        yield {
          id: deviceIds[index],
          hostname: `${role}-${pad(index + 1, 7)}.net.example`,
          ip: `10.${(index >>> 16) & 255}.${(index >>> 8) & 255}.${index & 255}`,
          vendor,
          model: modelPickers[vendor]?.() ?? null,
          os: OS_BY_VENDOR[vendor] ?? null,
          os_version: `${1 + Math.floor(next() * 20)}.${Math.floor(next() * 10)}`,
          status: pickStatus(),
          role,
          serial_number: next() < 0.9 ? `SN${pad(index + 1, 9)}` : null,
          rack_position: `R${pad(1 + Math.floor(next() * 40), 2)}-U${pad(1 + Math.floor(next() * 42), 2)}`,
          location_id: next() < 0.97 ? location : null,
          last_seen: new Date(now - Math.floor(next() * 86_400_000)).toISOString(),
          tags: [
            ...new Set([pickEnvironment(), pickSite(), ...EXTRA_TAGS.filter(() => next() < 0.15)]),
          ].sort(),
        };
      }
    })(),
  );

  // Two interfaces per device; the first ones of consecutive devices are linked in pairs.
  const interfaceIds: string[] = [];
  rows.interfaces = await insertAll(
    db,
    'interfaces',
    (function* () {
      for (let index = 0; index < shape.devices; index++) {
        for (let port = 0; port < 2; port++) {
          const id = uuidv7();
          if (port === 0) interfaceIds.push(id);
          const [speed, speedMbps] = pickSpeed();
          const serial = index * 2 + port;
          const up = next() < 0.85 ? 'up' : 'down';
          yield {
            id,
            device_id: deviceIds[index],
            name: `Ethernet1/${port + 1}`,
            description: port === 0 ? 'uplink' : null,
            type: 'ethernet',
            speed,
            speed_mbps: speedMbps,
            status: up,
            admin_status: 'up',
            oper_status: up,
            mtu: next() < 0.8 ? 1500 : 9216,
            mac_address: `02:00:${[24, 16, 8, 0].map((shift) => ((serial >>> shift) & 255).toString(16).padStart(2, '0')).join(':')}`,
            mode: port === 0 ? 'trunk' : 'access',
            ifindex: port + 1,
            ip_address: `172.${16 + ((serial >>> 16) & 15)}.${(serial >>> 8) & 255}.${serial & 255}`,
          };
        }
      }
    })(),
  );

  rows.links = await insertAll(
    db,
    'links',
    (function* () {
      for (let index = 0; index + 1 < interfaceIds.length; index += 2) {
        yield {
          id: uuidv7(),
          a_interface_id: interfaceIds[index],
          b_interface_id: interfaceIds[index + 1],
          type: 'fiber',
          status: next() < 0.95 ? 'up' : 'down',
        };
      }
    })(),
  );

  rows.events = await insertAll(
    db,
    'events',
    (function* () {
      const count = Math.round(shape.devices * shape.eventsPerDevice);
      for (let index = 0; index < count; index++) {
        yield {
          id: uuidv7(),
          severity: pickSeverity(),
          type: pickEventType(),
          message: `event ${index + 1}`,
          device_id: deviceIds[Math.floor(next() * deviceIds.length)],
          created_at: new Date(now - Math.floor(next() * 7 * 86_400_000)).toISOString(),
        };
      }
    })(),
  );

  // Through the metrics module, which also keeps each device's latest record for the overview.
  rows.device_metrics = 0;
  await db.transaction().execute(async (trx) => {
    let batch: MetricInput[] = [];
    const flush = async () => {
      rows.device_metrics =
        (rows.device_metrics ?? 0) + (await insertMetrics(trx, batch, new Date()));
      batch = [];
    };
    for (let sample = shape.metricsPerDevice; sample >= 1; sample--) {
      for (const deviceId of deviceIds) {
        batch.push({
          device_id: deviceId,
          cpu: Math.round(next() * 1000) / 10,
          memory: Math.round(next() * 1000) / 10,
          temperature: 30 + Math.round(next() * 400) / 10,
          uptime_seconds: Math.floor(next() * 31_536_000),
          ts: new Date(now - sample * 300_000).toISOString(),
        });
        if (batch.length === BATCH_ROWS) await flush();
      }
    }
    if (batch.length > 0) await flush();
  });

  return { shape, rows, seconds: (performance.now() - started) / 1000 };
}
