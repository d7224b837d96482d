// Generated from GET /openapi.json by openapi-typescript: do not edit.
// `npm run openapi:types -w apps/inventory` writes it again.
export interface paths {
  '/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read the service
     * @description Public.
     */
    get: operations['getRoot'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/debug/count': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read count
     * @description Public.
     */
    get: operations['getDebugCount'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/debug/list-cache': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read list-cache
     * @description Any valid token.
     */
    get: operations['getDebugListCache'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/health': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Liveness: the process serves HTTP. Does not touch the database.
     * @description Public.
     */
    get: operations['getHealth'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/health/ready': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Readiness: the database answers a query within 1000 ms; 503 otherwise.
     * @description Public.
     */
    get: operations['getHealthReady'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/users/login': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Send to login
     * @description Public.
     */
    post: operations['postUsersLogin'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/users/logout': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Send to logout
     * @description Public.
     */
    post: operations['postUsersLogout'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/users': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List users (filters, lookups, sorting, paging, CSV export)
     * @description Roles: admin.
     */
    get: operations['getUsers'];
    put?: never;
    /**
     * Create users: one record
     * @description Roles: admin.
     */
    post: operations['postUsers'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/users/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read one of users
     * @description The account's owner, or roles: admin.
     */
    get: operations['getUsersById'];
    /**
     * Replace one of users
     * @description The account's owner, or roles: admin.
     */
    put: operations['putUsersById'];
    post?: never;
    /**
     * Delete one of users
     * @description The account's owner, or roles: admin.
     */
    delete: operations['deleteUsersById'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/users/{id}/password': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    /**
     * Replace password
     * @description The account's owner, or roles: admin.
     */
    put: operations['putUsersByIdPassword'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/users/forgot-password': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Send to forgot-password
     * @description Public.
     */
    post: operations['postUsersForgotPassword'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/users/reset-password/{code}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Send to one of reset-password
     * @description Public.
     */
    post: operations['postUsersResetPasswordByCode'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/locations': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List locations (filters, lookups, sorting, paging, CSV export)
     * @description Any valid token.
     */
    get: operations['getLocations'];
    put?: never;
    /**
     * Create locations: one record, a JSON array or a CSV file
     * @description Roles: admin.
     */
    post: operations['postLocations'];
    /**
     * Delete many locations at once (all or none)
     * @description Roles: admin.
     */
    delete: operations['deleteLocations'];
    options?: never;
    head?: never;
    /**
     * Change many locations at once (all or none)
     * @description Roles: admin.
     */
    patch: operations['patchLocations'];
    trace?: never;
  };
  '/locations/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read one of locations
     * @description Any valid token.
     */
    get: operations['getLocationsById'];
    /**
     * Replace one of locations
     * @description Roles: admin.
     */
    put: operations['putLocationsById'];
    post?: never;
    /**
     * Delete one of locations
     * @description Roles: admin.
     */
    delete: operations['deleteLocationsById'];
    options?: never;
    head?: never;
    /**
     * Change fields of one of locations
     * @description Roles: admin.
     */
    patch: operations['patchLocationsById'];
    trace?: never;
  };
  '/locations/{id}/history': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Change history of one of locations
     * @description Roles: admin.
     */
    get: operations['getLocationsByIdHistory'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/locations/{id}/devices': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the devices of one of locations
     * @description Any valid token.
     */
    get: operations['getLocationsByIdDevices'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/locations/{id}/devicescount': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Count the devices of one of locations
     * @description Any valid token.
     */
    get: operations['getLocationsByIdDevicescount'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/devices': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List devices (filters, lookups, sorting, paging, CSV export)
     * @description Any valid token.
     */
    get: operations['getDevices'];
    put?: never;
    /**
     * Create devices: one record, a JSON array or a CSV file
     * @description Roles: admin.
     */
    post: operations['postDevices'];
    /**
     * Delete many devices at once (all or none)
     * @description Roles: admin.
     */
    delete: operations['deleteDevices'];
    options?: never;
    head?: never;
    /**
     * Change many devices at once (all or none)
     * @description Roles: admin.
     */
    patch: operations['patchDevices'];
    trace?: never;
  };
  '/devices/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read one of devices
     * @description Any valid token.
     */
    get: operations['getDevicesById'];
    /**
     * Replace one of devices
     * @description Roles: admin.
     */
    put: operations['putDevicesById'];
    post?: never;
    /**
     * Delete one of devices
     * @description Roles: admin.
     */
    delete: operations['deleteDevicesById'];
    options?: never;
    head?: never;
    /**
     * Change fields of one of devices
     * @description Roles: admin.
     */
    patch: operations['patchDevicesById'];
    trace?: never;
  };
  '/devices/{id}/history': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Change history of one of devices
     * @description Roles: admin.
     */
    get: operations['getDevicesByIdHistory'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/devices/{id}/interfaces': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the interfaces of one of devices
     * @description Any valid token.
     */
    get: operations['getDevicesByIdInterfaces'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/devices/{id}/interfacecount': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Count the interfaces of one of devices
     * @description Any valid token.
     */
    get: operations['getDevicesByIdInterfacecount'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/interfaces': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List interfaces (filters, lookups, sorting, paging, CSV export)
     * @description Any valid token.
     */
    get: operations['getInterfaces'];
    put?: never;
    /**
     * Create interfaces: one record, a JSON array or a CSV file
     * @description Roles: admin.
     */
    post: operations['postInterfaces'];
    /**
     * Delete many interfaces at once (all or none)
     * @description Roles: admin.
     */
    delete: operations['deleteInterfaces'];
    options?: never;
    head?: never;
    /**
     * Change many interfaces at once (all or none)
     * @description Roles: admin.
     */
    patch: operations['patchInterfaces'];
    trace?: never;
  };
  '/interfaces/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read one of interfaces
     * @description Any valid token.
     */
    get: operations['getInterfacesById'];
    /**
     * Replace one of interfaces
     * @description Roles: admin.
     */
    put: operations['putInterfacesById'];
    post?: never;
    /**
     * Delete one of interfaces
     * @description Roles: admin.
     */
    delete: operations['deleteInterfacesById'];
    options?: never;
    head?: never;
    /**
     * Change fields of one of interfaces
     * @description Roles: admin.
     */
    patch: operations['patchInterfacesById'];
    trace?: never;
  };
  '/interfaces/{id}/history': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Change history of one of interfaces
     * @description Roles: admin.
     */
    get: operations['getInterfacesByIdHistory'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/vlans': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List vlans (filters, lookups, sorting, paging, CSV export)
     * @description Any valid token.
     */
    get: operations['getVlans'];
    put?: never;
    /**
     * Create vlans: one record, a JSON array or a CSV file
     * @description Roles: admin.
     */
    post: operations['postVlans'];
    /**
     * Delete many vlans at once (all or none)
     * @description Roles: admin.
     */
    delete: operations['deleteVlans'];
    options?: never;
    head?: never;
    /**
     * Change many vlans at once (all or none)
     * @description Roles: admin.
     */
    patch: operations['patchVlans'];
    trace?: never;
  };
  '/vlans/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read one of vlans
     * @description Any valid token.
     */
    get: operations['getVlansById'];
    /**
     * Replace one of vlans
     * @description Roles: admin.
     */
    put: operations['putVlansById'];
    post?: never;
    /**
     * Delete one of vlans
     * @description Roles: admin.
     */
    delete: operations['deleteVlansById'];
    options?: never;
    head?: never;
    /**
     * Change fields of one of vlans
     * @description Roles: admin.
     */
    patch: operations['patchVlansById'];
    trace?: never;
  };
  '/vlans/{id}/history': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Change history of one of vlans
     * @description Roles: admin.
     */
    get: operations['getVlansByIdHistory'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/links': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List links (filters, lookups, sorting, paging, CSV export)
     * @description Any valid token.
     */
    get: operations['getLinks'];
    put?: never;
    /**
     * Create links: one record, a JSON array or a CSV file
     * @description Roles: admin, editor.
     */
    post: operations['postLinks'];
    /**
     * Delete many links at once (all or none)
     * @description Roles: admin, editor.
     */
    delete: operations['deleteLinks'];
    options?: never;
    head?: never;
    /**
     * Change many links at once (all or none)
     * @description Roles: admin, editor.
     */
    patch: operations['patchLinks'];
    trace?: never;
  };
  '/links/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read one of links
     * @description Any valid token.
     */
    get: operations['getLinksById'];
    /**
     * Replace one of links
     * @description Roles: admin, editor.
     */
    put: operations['putLinksById'];
    post?: never;
    /**
     * Delete one of links
     * @description Roles: admin, editor.
     */
    delete: operations['deleteLinksById'];
    options?: never;
    head?: never;
    /**
     * Change fields of one of links
     * @description Roles: admin, editor.
     */
    patch: operations['patchLinksById'];
    trace?: never;
  };
  '/links/{id}/history': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Change history of one of links
     * @description Roles: admin.
     */
    get: operations['getLinksByIdHistory'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/webhooks': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List webhooks (filters, lookups, sorting, paging, CSV export)
     * @description Roles: admin.
     */
    get: operations['getWebhooks'];
    put?: never;
    /**
     * Create webhooks: one record, a JSON array or a CSV file
     * @description Roles: admin.
     */
    post: operations['postWebhooks'];
    /**
     * Delete many webhooks at once (all or none)
     * @description Roles: admin.
     */
    delete: operations['deleteWebhooks'];
    options?: never;
    head?: never;
    /**
     * Change many webhooks at once (all or none)
     * @description Roles: admin.
     */
    patch: operations['patchWebhooks'];
    trace?: never;
  };
  '/webhooks/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read one of webhooks
     * @description Roles: admin.
     */
    get: operations['getWebhooksById'];
    /**
     * Replace one of webhooks
     * @description Roles: admin.
     */
    put: operations['putWebhooksById'];
    post?: never;
    /**
     * Delete one of webhooks
     * @description Roles: admin.
     */
    delete: operations['deleteWebhooksById'];
    options?: never;
    head?: never;
    /**
     * Change fields of one of webhooks
     * @description Roles: admin.
     */
    patch: operations['patchWebhooksById'];
    trace?: never;
  };
  '/webhooks/{id}/history': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Change history of one of webhooks
     * @description Roles: admin.
     */
    get: operations['getWebhooksByIdHistory'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/tags': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read tags
     * @description Any valid token.
     */
    get: operations['getTags'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/webhooks/{id}/deliveries': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read deliveries
     * @description Roles: admin.
     */
    get: operations['getWebhooksByIdDeliveries'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/webhooks/{id}/deliveries/{delivery_id}/redeliver': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Send to redeliver
     * @description Roles: admin.
     */
    post: operations['postWebhooksByIdDeliveriesByDeliveryIdRedeliver'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/events': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List events (signed-in users; API tokens with scope events:read)
     * @description Any valid token. Also API tokens with scope events:read.
     */
    get: operations['getEvents'];
    put?: never;
    /**
     * Report an event (admins, editors; API tokens with scope events:write)
     * @description Roles: admin, editor. Also API tokens with scope events:write.
     */
    post: operations['postEvents'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/events/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read an event (signed-in users; API tokens with scope events:read)
     * @description Any valid token. Also API tokens with scope events:read.
     */
    get: operations['getEventsById'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/metrics': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read metrics
     * @description Any valid token.
     */
    get: operations['getMetrics'];
    put?: never;
    /**
     * Send to metrics
     * @description Roles: admin, editor.
     */
    post: operations['postMetrics'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/metrics/device/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read one of device
     * @description Any valid token.
     */
    get: operations['getMetricsDeviceById'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/audit-logs': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read audit-logs
     * @description Roles: admin.
     */
    get: operations['getAuditLogs'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api-tokens': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List API tokens (admin; never the tokens themselves)
     * @description Roles: admin.
     */
    get: operations['getApiTokens'];
    put?: never;
    /**
     * Create an API token (admin); the answer is the only time the token is shown
     * @description Roles: admin.
     */
    post: operations['postApiTokens'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api-tokens/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read an API token (admin; never the token itself)
     * @description Roles: admin.
     */
    get: operations['getApiTokensById'];
    put?: never;
    post?: never;
    /**
     * Revoke an API token (admin): it stops working at once, on every instance
     * @description Roles: admin.
     */
    delete: operations['deleteApiTokensById'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export type webhooks = Record<string, never>;
export interface components {
  schemas: {
    Error: {
      /** @enum {string} */
      status: 'error';
      message: string;
    };
  };
  responses: never;
  parameters: never;
  requestBodies: never;
  headers: never;
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  getRoot: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The API version, as plain text (a health check) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': string;
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Forbidden: a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large: a chunked body's extensions over Node's limit. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error: the service failed (logged with the request id). */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getDebugCount: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            count: number;
          };
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Forbidden: a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large: a chunked body's extensions over Node's limit. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getDebugListCache: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            enabled: boolean;
            pages_reused: number;
            pages_read: number;
            pages_known_stale: number;
            totals_maintained: number;
            totals_reused: number;
            totals_counted: number;
            counts_awaited: number;
            walks_from_position: number;
            walks_from_start: number;
            positions_stale: number;
            deep_pages_unrecorded: number;
          };
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large: a chunked body's extensions over Node's limit. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getHealth: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            status: 'ok';
          };
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Forbidden: a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large: a chunked body's extensions over Node's limit. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getHealthReady: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            status: 'ok';
          };
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Forbidden: a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large: a chunked body's extensions over Node's limit. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  postUsersLogin: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          username: string;
          password: string;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            status: 'success';
            message: string;
            /** @description JWT (HS256); also set in the Bearer cookie */
            token: string;
          };
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Wrong username or password. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The account is inactive; or, as on every route, a browser request from an origin not allowed or from another site. */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large (BODY_LIMIT). */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Unsupported media type: send a Content-Type the operation reads. */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  postUsersLogout: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            status: 'success';
            message: string;
          };
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Forbidden: a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large: a chunked body's extensions over Node's limit. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getUsers: {
    parameters: {
      query?: {
        /** @description Page number (default 1). */
        page?: number;
        /** @description Keyset paging: a previous page's `meta.next_cursor`. Not with `page`; valid only for the same resource, sort and filters. */
        cursor?: string;
        /** @description Comma-separated fields to return (others are left out): id, created_at, updated_at, username, email, role, inactive_status. */
        fields?: string;
        /** @description Return only the id and the record's name field. */
        brief?: boolean;
        /** @description `csv`: every matching row as text/csv (header row of the selected fields; cells starting with = + - @ are prefixed with '; tags joined by commas). Also `Accept: text/csv`. Not with page or cursor. */
        format?: 'json' | 'csv';
        /** @description Items per page, 1 to 100 (default 10). */
        limit?: number;
        /** @description Sort keys applied in the order given (repeat the parameter for more than one); by id last, so the order is total. */
        sortby?: string[];
        /** @example j.doe */
        username?: string;
        email?: string;
        role?: 'admin' | 'editor' | 'viewer';
        inactive_status?: boolean;
        /** @description Lookup filters, each its own query parameter `<field>__<lookup>=<value>` (`?hostname__ic=core&vlan_id__gte=100`; the grammar is in the API description). Per field: `username`: n in lt lte gt gte ic nic isw iew ie isnull; `email`: n in lt lte gt gte ic nic isw iew ie isnull; `role`: n in ic nic isw iew ie isnull; `inactive_status`: n isnull; `id`: in. */
        lookups?: {
          username__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          username__in?: string;
          username__lt?: string;
          username__lte?: string;
          username__gt?: string;
          username__gte?: string;
          username__ic?: string;
          username__nic?: string;
          username__isw?: string;
          username__iew?: string;
          username__ie?: string;
          username__isnull?: boolean;
          /** Format: email */
          email__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          email__in?: string;
          /** Format: email */
          email__lt?: string;
          /** Format: email */
          email__lte?: string;
          /** Format: email */
          email__gt?: string;
          /** Format: email */
          email__gte?: string;
          email__ic?: string;
          email__nic?: string;
          email__isw?: string;
          email__iew?: string;
          email__ie?: string;
          email__isnull?: boolean;
          role__n?: 'admin' | 'editor' | 'viewer';
          /** @description Comma-separated values (at most 100), each typed like the field. */
          role__in?: string;
          role__ic?: string;
          role__nic?: string;
          role__isw?: string;
          role__iew?: string;
          role__ie?: string;
          role__isnull?: boolean;
          inactive_status__n?: boolean;
          inactive_status__isnull?: boolean;
          /** @description Records by id: comma-separated ids (at most 100). */
          id__in?: string;
        };
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            meta: {
              current_page: number | null;
              limit: number;
              total_pages: number;
              total_count: number;
              next_cursor: string | null;
            };
            data: {
              /** Format: uuid */
              id?: string;
              /** @example j.doe */
              username?: string;
              /** Format: email */
              email?: string;
              role?: 'admin' | 'editor' | 'viewer';
              inactive_status?: boolean;
              /** Format: date-time */
              created_at?: string;
              /** Format: date-time */
              updated_at?: string;
            }[];
          };
          'text/csv': string;
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large: a chunked body's extensions over Node's limit. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  postUsers: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "password": "example-password",
         *       "username": "j.doe",
         *       "email": "someone@example.com",
         *       "role": "viewer",
         *       "inactive_status": false
         *     }
         */
        'application/json': {
          password: string;
          /** @example j.doe */
          username: string;
          /** Format: email */
          email: string;
          role?: 'admin' | 'editor' | 'viewer';
          inactive_status?: boolean;
        };
      };
    };
    responses: {
      /** @description Default Response */
      201: {
        headers: {
          /** @description The version of the record as stored (`"1234567"`; weak, `W/"…"`, when `fields` or `brief` chose the fields): send it in If-Match to change this version only. A create of several records (an array, a CSV file) sends none. */
          ETag?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** Format: uuid */
            id: string;
            /** @example j.doe */
            username: string;
            /** Format: email */
            email: string;
            role: 'admin' | 'editor' | 'viewer';
            inactive_status: boolean;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
          };
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Conflict: a unique value is taken, or the change would leave no active admin. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large (BODY_LIMIT). */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Unsupported media type: send a Content-Type the operation reads. */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getUsersById: {
    parameters: {
      query?: {
        /** @description Comma-separated fields to return (others are left out): id, created_at, updated_at, username, email, role, inactive_status. */
        fields?: string;
        /** @description Return only the id and the record's name field. */
        brief?: boolean;
      };
      header?: {
        /** @description Reads: answer 304 without a body if the record's ETag is one of these. Writes: 412 and nothing changes if it is (`*`: the record exists). Evaluated after If-Match (RFC 9110 §13.2.2). Grammar (RFC 9110 §13.1): `*`, or a comma-separated list of at most 64 entity tags `"…"` or `W/"…"`; anything else is 400. */
        'if-none-match'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Every field, or only those chosen with `fields` or `brief`. */
      200: {
        headers: {
          /** @description The version of the record as stored (`"1234567"`; weak, `W/"…"`, when `fields` or `brief` chose the fields): send it in If-Match to change this version only. A create of several records (an array, a CSV file) sends none. */
          ETag?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** Format: uuid */
            id?: string;
            /** @example j.doe */
            username?: string;
            /** Format: email */
            email?: string;
            role?: 'admin' | 'editor' | 'viewer';
            inactive_status?: boolean;
            /** Format: date-time */
            created_at?: string;
            /** Format: date-time */
            updated_at?: string;
          };
        };
      };
      /** @description Not modified: the ETag sent is current. */
      304: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No such record (a batch: one of the ids names none). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large: a chunked body's extensions over Node's limit. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  putUsersById: {
    parameters: {
      query?: never;
      header?: {
        /** @description Write only if the record's ETag is one of these (`"123"`, a list, or `*`): else 412 and nothing changes. Grammar (RFC 9110 §13.1): `*`, or a comma-separated list of at most 64 entity tags `"…"` or `W/"…"`; anything else is 400. */
        'if-match'?: string;
        /** @description Reads: answer 304 without a body if the record's ETag is one of these. Writes: 412 and nothing changes if it is (`*`: the record exists). Evaluated after If-Match (RFC 9110 §13.2.2). Grammar (RFC 9110 §13.1): `*`, or a comma-separated list of at most 64 entity tags `"…"` or `W/"…"`; anything else is 400. */
        'if-none-match'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @example j.doe */
          username?: string;
          /** Format: email */
          email?: string;
          role?: 'admin' | 'editor' | 'viewer';
          inactive_status?: boolean;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          /** @description The version of the record as stored (`"1234567"`; weak, `W/"…"`, when `fields` or `brief` chose the fields): send it in If-Match to change this version only. A create of several records (an array, a CSV file) sends none. */
          ETag?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** Format: uuid */
            id: string;
            /** @example j.doe */
            username: string;
            /** Format: email */
            email: string;
            role: 'admin' | 'editor' | 'viewer';
            inactive_status: boolean;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
          };
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No such record (a batch: one of the ids names none). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Conflict: a unique value is taken, or the change would leave no active admin. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Precondition Failed: the record changed since the ETag sent was read; nothing was changed. Read it again (its new ETag) and retry. */
      412: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large (BODY_LIMIT). */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Unsupported media type: send a Content-Type the operation reads. */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  deleteUsersById: {
    parameters: {
      query?: never;
      header?: {
        /** @description Write only if the record's ETag is one of these (`"123"`, a list, or `*`): else 412 and nothing changes. Grammar (RFC 9110 §13.1): `*`, or a comma-separated list of at most 64 entity tags `"…"` or `W/"…"`; anything else is 400. */
        'if-match'?: string;
        /** @description Reads: answer 304 without a body if the record's ETag is one of these. Writes: 412 and nothing changes if it is (`*`: the record exists). Evaluated after If-Match (RFC 9110 §13.2.2). Grammar (RFC 9110 §13.1): `*`, or a comma-separated list of at most 64 entity tags `"…"` or `W/"…"`; anything else is 400. */
        'if-none-match'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No such record (a batch: one of the ids names none). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Conflict: a unique value is taken, or the change would leave no active admin. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Precondition Failed: the record changed since the ETag sent was read; nothing was changed. Read it again (its new ETag) and retry. */
      412: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large: a chunked body's extensions over Node's limit. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  putUsersByIdPassword: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          new_password: string;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            status: 'success';
            message: string;
          };
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No such record (a batch: one of the ids names none). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Conflict: a unique value is taken, or the change would leave no active admin. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large (BODY_LIMIT). */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Unsupported media type: send a Content-Type the operation reads. */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  postUsersForgotPassword: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** Format: email */
          email: string;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            status: 'success';
            message: string;
          };
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Forbidden: a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large (BODY_LIMIT). */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Unsupported media type: send a Content-Type the operation reads. */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  postUsersResetPasswordByCode: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        code: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          new_password: string;
          confirm_password: string;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            status: 'success';
            message: string;
          };
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Forbidden: a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No such record (a batch: one of the ids names none). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large (BODY_LIMIT). */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Unsupported media type: send a Content-Type the operation reads. */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getLocations: {
    parameters: {
      query?: {
        /** @description Page number (default 1). */
        page?: number;
        /** @description Keyset paging: a previous page's `meta.next_cursor`. Not with `page`; valid only for the same resource, sort and filters. */
        cursor?: string;
        /** @description Comma-separated fields to return (others are left out): id, created_at, updated_at, name, city, country, address, tags. */
        fields?: string;
        /** @description Return only the id and the record's name field. */
        brief?: boolean;
        /** @description `csv`: every matching row as text/csv (header row of the selected fields; cells starting with = + - @ are prefixed with '; tags joined by commas). Also `Accept: text/csv`. Not with page or cursor. */
        format?: 'json' | 'csv';
        /** @description Items per page, 1 to 100 (default 10). */
        limit?: number;
        /** @description Sort keys applied in the order given (repeat the parameter for more than one); by id last, so the order is total. */
        sortby?: string[];
        name?: string;
        city?: string;
        country?: string;
        tags?: string[];
        /** @description Case-insensitive search in name, city, country, address. */
        q?: string;
        /** @description Lookup filters, each its own query parameter `<field>__<lookup>=<value>` (`?hostname__ic=core&vlan_id__gte=100`; the grammar is in the API description). Per field: `name`: n in lt lte gt gte ic nic isw iew ie isnull; `city`: n in lt lte gt gte ic nic isw iew ie isnull; `country`: n in lt lte gt gte ic nic isw iew ie isnull; `id`: in. */
        lookups?: {
          name__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          name__in?: string;
          name__lt?: string;
          name__lte?: string;
          name__gt?: string;
          name__gte?: string;
          name__ic?: string;
          name__nic?: string;
          name__isw?: string;
          name__iew?: string;
          name__ie?: string;
          name__isnull?: boolean;
          city__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          city__in?: string;
          city__lt?: string;
          city__lte?: string;
          city__gt?: string;
          city__gte?: string;
          city__ic?: string;
          city__nic?: string;
          city__isw?: string;
          city__iew?: string;
          city__ie?: string;
          city__isnull?: boolean;
          country__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          country__in?: string;
          country__lt?: string;
          country__lte?: string;
          country__gt?: string;
          country__gte?: string;
          country__ic?: string;
          country__nic?: string;
          country__isw?: string;
          country__iew?: string;
          country__ie?: string;
          country__isnull?: boolean;
          /** @description Records by id: comma-separated ids (at most 100). */
          id__in?: string;
        };
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            meta: {
              current_page: number | null;
              limit: number;
              total_pages: number;
              total_count: number;
              next_cursor: string | null;
            };
            data: {
              /** Format: uuid */
              id?: string;
              name?: string;
              city?: string | null;
              country?: string | null;
              address?: string | null;
              tags?: string[];
              /** Format: date-time */
              created_at?: string;
              /** Format: date-time */
              updated_at?: string;
            }[];
          };
          'text/csv': string;
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large: a chunked body's extensions over Node's limit. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  postLocations: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** @description One record, or an array of 1 to 1000 created all or none. */
    requestBody: {
      content: {
        /**
         * @example {
         *       "name": "example-name",
         *       "tags": []
         *     }
         */
        'application/json':
          | {
              name: string;
              city?: string | null;
              country?: string | null;
              address?: string | null;
              tags?: string[];
            }
          | {
              name: string;
              city?: string | null;
              country?: string | null;
              address?: string | null;
              tags?: string[];
            }[];
        'text/csv': string;
      };
    };
    responses: {
      /** @description Default Response */
      201: {
        headers: {
          /** @description The version of the record as stored (`"1234567"`; weak, `W/"…"`, when `fields` or `brief` chose the fields): send it in If-Match to change this version only. A create of several records (an array, a CSV file) sends none. */
          ETag?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json':
            | {
                /** Format: uuid */
                id: string;
                name: string;
                city: string | null;
                country: string | null;
                address: string | null;
                tags: string[];
                /** Format: date-time */
                created_at: string;
                /** Format: date-time */
                updated_at: string;
              }
            | {
                /** Format: uuid */
                id: string;
                name: string;
                city: string | null;
                country: string | null;
                address: string | null;
                tags: string[];
                /** Format: date-time */
                created_at: string;
                /** Format: date-time */
                updated_at: string;
              }[];
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Conflict: a unique value is taken, or the change would leave no active admin. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large (BODY_LIMIT). */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Unsupported media type: send a Content-Type the operation reads. */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  deleteLocations: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': string[];
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            status: 'success';
            message: string;
            count: number;
          };
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No such record (a batch: one of the ids names none). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Conflict: a unique value is taken, or the change would leave no active admin. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large (BODY_LIMIT). */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Unsupported media type: send a Content-Type the operation reads. */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  patchLocations: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** Format: uuid */
          id: string;
          name?: string;
          city?: string | null;
          country?: string | null;
          address?: string | null;
          tags?: string[];
          /** @description The record's ETag as last read (`"123"`): the batch is refused with 412, and nothing changed, if the record has changed since. */
          etag?: string;
          /** @description Tags to add to those the record has (instead of `tags`). */
          add_tags?: string[];
          /** @description Tags to remove from those the record has (instead of `tags`). */
          remove_tags?: string[];
        }[];
        'text/csv': string;
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            status: 'success';
            message: string;
            count: number;
          };
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No such record (a batch: one of the ids names none). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Conflict: a unique value is taken, or the change would leave no active admin. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Precondition Failed: the record changed since the ETag sent was read; nothing was changed. Read it again (its new ETag) and retry. */
      412: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large (BODY_LIMIT). */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Unsupported media type: send a Content-Type the operation reads. */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getLocationsById: {
    parameters: {
      query?: {
        /** @description Comma-separated fields to return (others are left out): id, created_at, updated_at, name, city, country, address, tags. */
        fields?: string;
        /** @description Return only the id and the record's name field. */
        brief?: boolean;
      };
      header?: {
        /** @description Reads: answer 304 without a body if the record's ETag is one of these. Writes: 412 and nothing changes if it is (`*`: the record exists). Evaluated after If-Match (RFC 9110 §13.2.2). Grammar (RFC 9110 §13.1): `*`, or a comma-separated list of at most 64 entity tags `"…"` or `W/"…"`; anything else is 400. */
        'if-none-match'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Every field, or only those chosen with `fields` or `brief`. */
      200: {
        headers: {
          /** @description The version of the record as stored (`"1234567"`; weak, `W/"…"`, when `fields` or `brief` chose the fields): send it in If-Match to change this version only. A create of several records (an array, a CSV file) sends none. */
          ETag?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** Format: uuid */
            id?: string;
            name?: string;
            city?: string | null;
            country?: string | null;
            address?: string | null;
            tags?: string[];
            /** Format: date-time */
            created_at?: string;
            /** Format: date-time */
            updated_at?: string;
          };
        };
      };
      /** @description Not modified: the ETag sent is current. */
      304: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No such record (a batch: one of the ids names none). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large: a chunked body's extensions over Node's limit. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  putLocationsById: {
    parameters: {
      query?: never;
      header?: {
        /** @description Write only if the record's ETag is one of these (`"123"`, a list, or `*`): else 412 and nothing changes. Grammar (RFC 9110 §13.1): `*`, or a comma-separated list of at most 64 entity tags `"…"` or `W/"…"`; anything else is 400. */
        'if-match'?: string;
        /** @description Reads: answer 304 without a body if the record's ETag is one of these. Writes: 412 and nothing changes if it is (`*`: the record exists). Evaluated after If-Match (RFC 9110 §13.2.2). Grammar (RFC 9110 §13.1): `*`, or a comma-separated list of at most 64 entity tags `"…"` or `W/"…"`; anything else is 400. */
        'if-none-match'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          name: string;
          city?: string | null;
          country?: string | null;
          address?: string | null;
          tags?: string[];
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          /** @description The version of the record as stored (`"1234567"`; weak, `W/"…"`, when `fields` or `brief` chose the fields): send it in If-Match to change this version only. A create of several records (an array, a CSV file) sends none. */
          ETag?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** Format: uuid */
            id: string;
            name: string;
            city: string | null;
            country: string | null;
            address: string | null;
            tags: string[];
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
          };
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No such record (a batch: one of the ids names none). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Conflict: a unique value is taken, or the change would leave no active admin. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Precondition Failed: the record changed since the ETag sent was read; nothing was changed. Read it again (its new ETag) and retry. */
      412: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large (BODY_LIMIT). */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Unsupported media type: send a Content-Type the operation reads. */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  deleteLocationsById: {
    parameters: {
      query?: never;
      header?: {
        /** @description Write only if the record's ETag is one of these (`"123"`, a list, or `*`): else 412 and nothing changes. Grammar (RFC 9110 §13.1): `*`, or a comma-separated list of at most 64 entity tags `"…"` or `W/"…"`; anything else is 400. */
        'if-match'?: string;
        /** @description Reads: answer 304 without a body if the record's ETag is one of these. Writes: 412 and nothing changes if it is (`*`: the record exists). Evaluated after If-Match (RFC 9110 §13.2.2). Grammar (RFC 9110 §13.1): `*`, or a comma-separated list of at most 64 entity tags `"…"` or `W/"…"`; anything else is 400. */
        'if-none-match'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No such record (a batch: one of the ids names none). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Conflict: a unique value is taken, or the change would leave no active admin. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Precondition Failed: the record changed since the ETag sent was read; nothing was changed. Read it again (its new ETag) and retry. */
      412: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large: a chunked body's extensions over Node's limit. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  patchLocationsById: {
    parameters: {
      query?: never;
      header?: {
        /** @description Write only if the record's ETag is one of these (`"123"`, a list, or `*`): else 412 and nothing changes. Grammar (RFC 9110 §13.1): `*`, or a comma-separated list of at most 64 entity tags `"…"` or `W/"…"`; anything else is 400. */
        'if-match'?: string;
        /** @description Reads: answer 304 without a body if the record's ETag is one of these. Writes: 412 and nothing changes if it is (`*`: the record exists). Evaluated after If-Match (RFC 9110 §13.2.2). Grammar (RFC 9110 §13.1): `*`, or a comma-separated list of at most 64 entity tags `"…"` or `W/"…"`; anything else is 400. */
        'if-none-match'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          name?: string;
          city?: string | null;
          country?: string | null;
          address?: string | null;
          tags?: string[];
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          /** @description The version of the record as stored (`"1234567"`; weak, `W/"…"`, when `fields` or `brief` chose the fields): send it in If-Match to change this version only. A create of several records (an array, a CSV file) sends none. */
          ETag?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** Format: uuid */
            id: string;
            name: string;
            city: string | null;
            country: string | null;
            address: string | null;
            tags: string[];
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
          };
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No such record (a batch: one of the ids names none). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Conflict: a unique value is taken, or the change would leave no active admin. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Precondition Failed: the record changed since the ETag sent was read; nothing was changed. Read it again (its new ETag) and retry. */
      412: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large (BODY_LIMIT). */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Unsupported media type: send a Content-Type the operation reads. */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getLocationsByIdHistory: {
    parameters: {
      query?: {
        /** @description Page number (default 1). */
        page?: number;
        /** @description Keyset paging: a previous page's `meta.next_cursor`. Not with `page`; valid only for the same resource, sort and filters. */
        cursor?: string;
        /** @description Comma-separated fields to return (others are left out): id, created_at, user_id, username, action, resource_type, resource_id, changes, prechange, postchange, request_id, client_ip. */
        fields?: string;
        /** @description Return only the id and the record's name field. */
        brief?: boolean;
        /** @description `csv`: every matching row as text/csv (header row of the selected fields; cells starting with = + - @ are prefixed with '; tags joined by commas). Also `Accept: text/csv`. Not with page or cursor. */
        format?: 'json' | 'csv';
        /** @description Items per page, 1 to 100 (default 10). */
        limit?: number;
        /** @description Sort keys applied in the order given (repeat the parameter for more than one); by id last, so the order is total. */
        sortby?: string[];
        user_id?: string;
        action?:
          | 'create'
          | 'replace'
          | 'update'
          | 'delete'
          | 'login'
          | 'login_failed'
          | 'logout'
          | 'password_reset';
        request_id?: string;
        from?: string;
        to?: string;
        /** @description Lookup filters, each its own query parameter `<field>__<lookup>=<value>` (`?hostname__ic=core&vlan_id__gte=100`; the grammar is in the API description). Per field: `user_id`: n in isnull; `action`: n in ic nic isw iew ie isnull; `request_id`: n in lt lte gt gte ic nic isw iew ie isnull; `id`: in. */
        lookups?: {
          /** Format: uuid */
          user_id__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          user_id__in?: string;
          user_id__isnull?: boolean;
          action__n?:
            | 'create'
            | 'replace'
            | 'update'
            | 'delete'
            | 'login'
            | 'login_failed'
            | 'logout'
            | 'password_reset';
          /** @description Comma-separated values (at most 100), each typed like the field. */
          action__in?: string;
          action__ic?: string;
          action__nic?: string;
          action__isw?: string;
          action__iew?: string;
          action__ie?: string;
          action__isnull?: boolean;
          request_id__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          request_id__in?: string;
          request_id__lt?: string;
          request_id__lte?: string;
          request_id__gt?: string;
          request_id__gte?: string;
          request_id__ic?: string;
          request_id__nic?: string;
          request_id__isw?: string;
          request_id__iew?: string;
          request_id__ie?: string;
          request_id__isnull?: boolean;
          /** @description Records by id: comma-separated ids (at most 100). */
          id__in?: string;
        };
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            meta: {
              current_page: number | null;
              limit: number;
              total_pages: number;
              total_count: number;
              next_cursor: string | null;
            };
            data: {
              /** Format: uuid */
              id?: string;
              user_id?: string | null;
              username?: string | null;
              action?:
                | (
                    | 'create'
                    | 'replace'
                    | 'update'
                    | 'delete'
                    | 'login'
                    | 'login_failed'
                    | 'logout'
                    | 'password_reset'
                  )
                | null;
              resource_type?: string | null;
              resource_id?: string | null;
              changes?: {
                [key: string]: unknown;
              } | null;
              prechange?: {
                [key: string]: unknown;
              } | null;
              postchange?: {
                [key: string]: unknown;
              } | null;
              request_id?: string | null;
              client_ip?: string | null;
              /** Format: date-time */
              created_at?: string;
            }[];
          };
          'text/csv': string;
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No such record (a batch: one of the ids names none). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large: a chunked body's extensions over Node's limit. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getLocationsByIdDevices: {
    parameters: {
      query?: {
        /** @description Page number (default 1). */
        page?: number;
        /** @description Keyset paging: a previous page's `meta.next_cursor`. Not with `page`; valid only for the same resource, sort and filters. */
        cursor?: string;
        /** @description Comma-separated fields to return (others are left out): id, created_at, updated_at, hostname, ip, vendor, model, os, os_version, status, role, serial_number, rack_position, location_id, last_seen, tags. */
        fields?: string;
        /** @description Return only the id and the record's name field. */
        brief?: boolean;
        /** @description `csv`: every matching row as text/csv (header row of the selected fields; cells starting with = + - @ are prefixed with '; tags joined by commas). Also `Accept: text/csv`. Not with page or cursor. */
        format?: 'json' | 'csv';
        /** @description Items per page, 1 to 100 (default 10). */
        limit?: number;
        /** @description Sort keys applied in the order given (repeat the parameter for more than one); by id last, so the order is total. */
        sortby?: string[];
        hostname?: string;
        ip?: string;
        vendor?: string;
        model?: string;
        os?: string;
        os_version?: string;
        status?: 'active' | 'offline' | 'maintenance' | 'provisioning' | 'decommissioned';
        role?: string;
        serial_number?: string;
        rack_position?: string;
        last_seen?: string;
        tags?: string[];
        /** @description Case-insensitive search in hostname, ip, serial_number, vendor, model, os, role. */
        q?: string;
        /** @description Lookup filters, each its own query parameter `<field>__<lookup>=<value>` (`?hostname__ic=core&vlan_id__gte=100`; the grammar is in the API description). Per field: `hostname`: n in lt lte gt gte ic nic isw iew ie isnull; `ip`: n in lt lte gt gte isnull; `vendor`: n in lt lte gt gte ic nic isw iew ie isnull; `model`: n in lt lte gt gte ic nic isw iew ie isnull; `os`: n in lt lte gt gte ic nic isw iew ie isnull; `os_version`: n in lt lte gt gte ic nic isw iew ie isnull; `status`: n in ic nic isw iew ie isnull; `role`: n in lt lte gt gte ic nic isw iew ie isnull; `serial_number`: n in lt lte gt gte ic nic isw iew ie isnull; `rack_position`: n in lt lte gt gte ic nic isw iew ie isnull; `last_seen`: n in lt lte gt gte isnull; `id`: in. */
        lookups?: {
          hostname__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          hostname__in?: string;
          hostname__lt?: string;
          hostname__lte?: string;
          hostname__gt?: string;
          hostname__gte?: string;
          hostname__ic?: string;
          hostname__nic?: string;
          hostname__isw?: string;
          hostname__iew?: string;
          hostname__ie?: string;
          hostname__isnull?: boolean;
          ip__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          ip__in?: string;
          ip__lt?: string;
          ip__lte?: string;
          ip__gt?: string;
          ip__gte?: string;
          ip__isnull?: boolean;
          vendor__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          vendor__in?: string;
          vendor__lt?: string;
          vendor__lte?: string;
          vendor__gt?: string;
          vendor__gte?: string;
          vendor__ic?: string;
          vendor__nic?: string;
          vendor__isw?: string;
          vendor__iew?: string;
          vendor__ie?: string;
          vendor__isnull?: boolean;
          model__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          model__in?: string;
          model__lt?: string;
          model__lte?: string;
          model__gt?: string;
          model__gte?: string;
          model__ic?: string;
          model__nic?: string;
          model__isw?: string;
          model__iew?: string;
          model__ie?: string;
          model__isnull?: boolean;
          os__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          os__in?: string;
          os__lt?: string;
          os__lte?: string;
          os__gt?: string;
          os__gte?: string;
          os__ic?: string;
          os__nic?: string;
          os__isw?: string;
          os__iew?: string;
          os__ie?: string;
          os__isnull?: boolean;
          os_version__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          os_version__in?: string;
          os_version__lt?: string;
          os_version__lte?: string;
          os_version__gt?: string;
          os_version__gte?: string;
          os_version__ic?: string;
          os_version__nic?: string;
          os_version__isw?: string;
          os_version__iew?: string;
          os_version__ie?: string;
          os_version__isnull?: boolean;
          status__n?: 'active' | 'offline' | 'maintenance' | 'provisioning' | 'decommissioned';
          /** @description Comma-separated values (at most 100), each typed like the field. */
          status__in?: string;
          status__ic?: string;
          status__nic?: string;
          status__isw?: string;
          status__iew?: string;
          status__ie?: string;
          status__isnull?: boolean;
          role__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          role__in?: string;
          role__lt?: string;
          role__lte?: string;
          role__gt?: string;
          role__gte?: string;
          role__ic?: string;
          role__nic?: string;
          role__isw?: string;
          role__iew?: string;
          role__ie?: string;
          role__isnull?: boolean;
          serial_number__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          serial_number__in?: string;
          serial_number__lt?: string;
          serial_number__lte?: string;
          serial_number__gt?: string;
          serial_number__gte?: string;
          serial_number__ic?: string;
          serial_number__nic?: string;
          serial_number__isw?: string;
          serial_number__iew?: string;
          serial_number__ie?: string;
          serial_number__isnull?: boolean;
          rack_position__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          rack_position__in?: string;
          rack_position__lt?: string;
          rack_position__lte?: string;
          rack_position__gt?: string;
          rack_position__gte?: string;
          rack_position__ic?: string;
          rack_position__nic?: string;
          rack_position__isw?: string;
          rack_position__iew?: string;
          rack_position__ie?: string;
          rack_position__isnull?: boolean;
          /** Format: date-time */
          last_seen__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          last_seen__in?: string;
          /** Format: date-time */
          last_seen__lt?: string;
          /** Format: date-time */
          last_seen__lte?: string;
          /** Format: date-time */
          last_seen__gt?: string;
          /** Format: date-time */
          last_seen__gte?: string;
          last_seen__isnull?: boolean;
          /** @description Records by id: comma-separated ids (at most 100). */
          id__in?: string;
        };
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            meta: {
              current_page: number | null;
              limit: number;
              total_pages: number;
              total_count: number;
              next_cursor: string | null;
            };
            data: {
              /** Format: uuid */
              id?: string;
              hostname?: string;
              ip?: string;
              vendor?: string | null;
              model?: string | null;
              os?: string | null;
              os_version?: string | null;
              status?: 'active' | 'offline' | 'maintenance' | 'provisioning' | 'decommissioned';
              role?: string | null;
              serial_number?: string | null;
              rack_position?: string | null;
              location_id?: string | null;
              last_seen?: string | null;
              tags?: string[];
              /** Format: date-time */
              created_at?: string;
              /** Format: date-time */
              updated_at?: string;
            }[];
          };
          'text/csv': string;
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No such record (a batch: one of the ids names none). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large: a chunked body's extensions over Node's limit. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getLocationsByIdDevicescount: {
    parameters: {
      query?: {
        hostname?: string;
        ip?: string;
        vendor?: string;
        model?: string;
        os?: string;
        os_version?: string;
        status?: 'active' | 'offline' | 'maintenance' | 'provisioning' | 'decommissioned';
        role?: string;
        serial_number?: string;
        rack_position?: string;
        last_seen?: string;
        tags?: string[];
        /** @description Case-insensitive search in hostname, ip, serial_number, vendor, model, os, role. */
        q?: string;
        /** @description Lookup filters, each its own query parameter `<field>__<lookup>=<value>` (`?hostname__ic=core&vlan_id__gte=100`; the grammar is in the API description). Per field: `hostname`: n in lt lte gt gte ic nic isw iew ie isnull; `ip`: n in lt lte gt gte isnull; `vendor`: n in lt lte gt gte ic nic isw iew ie isnull; `model`: n in lt lte gt gte ic nic isw iew ie isnull; `os`: n in lt lte gt gte ic nic isw iew ie isnull; `os_version`: n in lt lte gt gte ic nic isw iew ie isnull; `status`: n in ic nic isw iew ie isnull; `role`: n in lt lte gt gte ic nic isw iew ie isnull; `serial_number`: n in lt lte gt gte ic nic isw iew ie isnull; `rack_position`: n in lt lte gt gte ic nic isw iew ie isnull; `last_seen`: n in lt lte gt gte isnull; `id`: in. */
        lookups?: {
          hostname__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          hostname__in?: string;
          hostname__lt?: string;
          hostname__lte?: string;
          hostname__gt?: string;
          hostname__gte?: string;
          hostname__ic?: string;
          hostname__nic?: string;
          hostname__isw?: string;
          hostname__iew?: string;
          hostname__ie?: string;
          hostname__isnull?: boolean;
          ip__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          ip__in?: string;
          ip__lt?: string;
          ip__lte?: string;
          ip__gt?: string;
          ip__gte?: string;
          ip__isnull?: boolean;
          vendor__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          vendor__in?: string;
          vendor__lt?: string;
          vendor__lte?: string;
          vendor__gt?: string;
          vendor__gte?: string;
          vendor__ic?: string;
          vendor__nic?: string;
          vendor__isw?: string;
          vendor__iew?: string;
          vendor__ie?: string;
          vendor__isnull?: boolean;
          model__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          model__in?: string;
          model__lt?: string;
          model__lte?: string;
          model__gt?: string;
          model__gte?: string;
          model__ic?: string;
          model__nic?: string;
          model__isw?: string;
          model__iew?: string;
          model__ie?: string;
          model__isnull?: boolean;
          os__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          os__in?: string;
          os__lt?: string;
          os__lte?: string;
          os__gt?: string;
          os__gte?: string;
          os__ic?: string;
          os__nic?: string;
          os__isw?: string;
          os__iew?: string;
          os__ie?: string;
          os__isnull?: boolean;
          os_version__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          os_version__in?: string;
          os_version__lt?: string;
          os_version__lte?: string;
          os_version__gt?: string;
          os_version__gte?: string;
          os_version__ic?: string;
          os_version__nic?: string;
          os_version__isw?: string;
          os_version__iew?: string;
          os_version__ie?: string;
          os_version__isnull?: boolean;
          status__n?: 'active' | 'offline' | 'maintenance' | 'provisioning' | 'decommissioned';
          /** @description Comma-separated values (at most 100), each typed like the field. */
          status__in?: string;
          status__ic?: string;
          status__nic?: string;
          status__isw?: string;
          status__iew?: string;
          status__ie?: string;
          status__isnull?: boolean;
          role__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          role__in?: string;
          role__lt?: string;
          role__lte?: string;
          role__gt?: string;
          role__gte?: string;
          role__ic?: string;
          role__nic?: string;
          role__isw?: string;
          role__iew?: string;
          role__ie?: string;
          role__isnull?: boolean;
          serial_number__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          serial_number__in?: string;
          serial_number__lt?: string;
          serial_number__lte?: string;
          serial_number__gt?: string;
          serial_number__gte?: string;
          serial_number__ic?: string;
          serial_number__nic?: string;
          serial_number__isw?: string;
          serial_number__iew?: string;
          serial_number__ie?: string;
          serial_number__isnull?: boolean;
          rack_position__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          rack_position__in?: string;
          rack_position__lt?: string;
          rack_position__lte?: string;
          rack_position__gt?: string;
          rack_position__gte?: string;
          rack_position__ic?: string;
          rack_position__nic?: string;
          rack_position__isw?: string;
          rack_position__iew?: string;
          rack_position__ie?: string;
          rack_position__isnull?: boolean;
          /** Format: date-time */
          last_seen__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          last_seen__in?: string;
          /** Format: date-time */
          last_seen__lt?: string;
          /** Format: date-time */
          last_seen__lte?: string;
          /** Format: date-time */
          last_seen__gt?: string;
          /** Format: date-time */
          last_seen__gte?: string;
          last_seen__isnull?: boolean;
          /** @description Records by id: comma-separated ids (at most 100). */
          id__in?: string;
        };
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            status: 'success';
            count: number;
          };
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No such record (a batch: one of the ids names none). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large: a chunked body's extensions over Node's limit. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getDevices: {
    parameters: {
      query?: {
        /** @description Page number (default 1). */
        page?: number;
        /** @description Keyset paging: a previous page's `meta.next_cursor`. Not with `page`; valid only for the same resource, sort and filters. */
        cursor?: string;
        /** @description Comma-separated fields to return (others are left out): id, created_at, updated_at, hostname, ip, vendor, model, os, os_version, status, role, serial_number, rack_position, location_id, last_seen, tags. */
        fields?: string;
        /** @description Return only the id and the record's name field. */
        brief?: boolean;
        /** @description `csv`: every matching row as text/csv (header row of the selected fields; cells starting with = + - @ are prefixed with '; tags joined by commas). Also `Accept: text/csv`. Not with page or cursor. */
        format?: 'json' | 'csv';
        /** @description Items per page, 1 to 100 (default 10). */
        limit?: number;
        /** @description Sort keys applied in the order given (repeat the parameter for more than one); by id last, so the order is total. */
        sortby?: string[];
        hostname?: string;
        ip?: string;
        vendor?: string;
        model?: string;
        os?: string;
        os_version?: string;
        status?: 'active' | 'offline' | 'maintenance' | 'provisioning' | 'decommissioned';
        role?: string;
        serial_number?: string;
        rack_position?: string;
        location_id?: string;
        last_seen?: string;
        tags?: string[];
        /** @description Case-insensitive search in hostname, ip, serial_number, vendor, model, os, role. */
        q?: string;
        /** @description Lookup filters, each its own query parameter `<field>__<lookup>=<value>` (`?hostname__ic=core&vlan_id__gte=100`; the grammar is in the API description). Per field: `hostname`: n in lt lte gt gte ic nic isw iew ie isnull; `ip`: n in lt lte gt gte isnull; `vendor`: n in lt lte gt gte ic nic isw iew ie isnull; `model`: n in lt lte gt gte ic nic isw iew ie isnull; `os`: n in lt lte gt gte ic nic isw iew ie isnull; `os_version`: n in lt lte gt gte ic nic isw iew ie isnull; `status`: n in ic nic isw iew ie isnull; `role`: n in lt lte gt gte ic nic isw iew ie isnull; `serial_number`: n in lt lte gt gte ic nic isw iew ie isnull; `rack_position`: n in lt lte gt gte ic nic isw iew ie isnull; `location_id`: n in isnull; `last_seen`: n in lt lte gt gte isnull; `id`: in. */
        lookups?: {
          hostname__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          hostname__in?: string;
          hostname__lt?: string;
          hostname__lte?: string;
          hostname__gt?: string;
          hostname__gte?: string;
          hostname__ic?: string;
          hostname__nic?: string;
          hostname__isw?: string;
          hostname__iew?: string;
          hostname__ie?: string;
          hostname__isnull?: boolean;
          ip__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          ip__in?: string;
          ip__lt?: string;
          ip__lte?: string;
          ip__gt?: string;
          ip__gte?: string;
          ip__isnull?: boolean;
          vendor__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          vendor__in?: string;
          vendor__lt?: string;
          vendor__lte?: string;
          vendor__gt?: string;
          vendor__gte?: string;
          vendor__ic?: string;
          vendor__nic?: string;
          vendor__isw?: string;
          vendor__iew?: string;
          vendor__ie?: string;
          vendor__isnull?: boolean;
          model__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          model__in?: string;
          model__lt?: string;
          model__lte?: string;
          model__gt?: string;
          model__gte?: string;
          model__ic?: string;
          model__nic?: string;
          model__isw?: string;
          model__iew?: string;
          model__ie?: string;
          model__isnull?: boolean;
          os__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          os__in?: string;
          os__lt?: string;
          os__lte?: string;
          os__gt?: string;
          os__gte?: string;
          os__ic?: string;
          os__nic?: string;
          os__isw?: string;
          os__iew?: string;
          os__ie?: string;
          os__isnull?: boolean;
          os_version__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          os_version__in?: string;
          os_version__lt?: string;
          os_version__lte?: string;
          os_version__gt?: string;
          os_version__gte?: string;
          os_version__ic?: string;
          os_version__nic?: string;
          os_version__isw?: string;
          os_version__iew?: string;
          os_version__ie?: string;
          os_version__isnull?: boolean;
          status__n?: 'active' | 'offline' | 'maintenance' | 'provisioning' | 'decommissioned';
          /** @description Comma-separated values (at most 100), each typed like the field. */
          status__in?: string;
          status__ic?: string;
          status__nic?: string;
          status__isw?: string;
          status__iew?: string;
          status__ie?: string;
          status__isnull?: boolean;
          role__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          role__in?: string;
          role__lt?: string;
          role__lte?: string;
          role__gt?: string;
          role__gte?: string;
          role__ic?: string;
          role__nic?: string;
          role__isw?: string;
          role__iew?: string;
          role__ie?: string;
          role__isnull?: boolean;
          serial_number__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          serial_number__in?: string;
          serial_number__lt?: string;
          serial_number__lte?: string;
          serial_number__gt?: string;
          serial_number__gte?: string;
          serial_number__ic?: string;
          serial_number__nic?: string;
          serial_number__isw?: string;
          serial_number__iew?: string;
          serial_number__ie?: string;
          serial_number__isnull?: boolean;
          rack_position__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          rack_position__in?: string;
          rack_position__lt?: string;
          rack_position__lte?: string;
          rack_position__gt?: string;
          rack_position__gte?: string;
          rack_position__ic?: string;
          rack_position__nic?: string;
          rack_position__isw?: string;
          rack_position__iew?: string;
          rack_position__ie?: string;
          rack_position__isnull?: boolean;
          /** Format: uuid */
          location_id__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          location_id__in?: string;
          location_id__isnull?: boolean;
          /** Format: date-time */
          last_seen__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          last_seen__in?: string;
          /** Format: date-time */
          last_seen__lt?: string;
          /** Format: date-time */
          last_seen__lte?: string;
          /** Format: date-time */
          last_seen__gt?: string;
          /** Format: date-time */
          last_seen__gte?: string;
          last_seen__isnull?: boolean;
          /** @description Records by id: comma-separated ids (at most 100). */
          id__in?: string;
        };
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            meta: {
              current_page: number | null;
              limit: number;
              total_pages: number;
              total_count: number;
              next_cursor: string | null;
            };
            data: {
              /** Format: uuid */
              id?: string;
              hostname?: string;
              ip?: string;
              vendor?: string | null;
              model?: string | null;
              os?: string | null;
              os_version?: string | null;
              status?: 'active' | 'offline' | 'maintenance' | 'provisioning' | 'decommissioned';
              role?: string | null;
              serial_number?: string | null;
              rack_position?: string | null;
              location_id?: string | null;
              last_seen?: string | null;
              tags?: string[];
              /** Format: date-time */
              created_at?: string;
              /** Format: date-time */
              updated_at?: string;
            }[];
          };
          'text/csv': string;
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large: a chunked body's extensions over Node's limit. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  postDevices: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** @description One record, or an array of 1 to 1000 created all or none. */
    requestBody: {
      content: {
        /**
         * @example {
         *       "hostname": "example-hostname",
         *       "ip": "192.0.2.10",
         *       "status": "active",
         *       "tags": []
         *     }
         */
        'application/json':
          | {
              hostname: string;
              ip: string;
              vendor?: string | null;
              model?: string | null;
              os?: string | null;
              os_version?: string | null;
              status?: 'active' | 'offline' | 'maintenance' | 'provisioning' | 'decommissioned';
              role?: string | null;
              serial_number?: string | null;
              rack_position?: string | null;
              location_id?: string | null;
              last_seen?: string | null;
              tags?: string[];
            }
          | {
              hostname: string;
              ip: string;
              vendor?: string | null;
              model?: string | null;
              os?: string | null;
              os_version?: string | null;
              status?: 'active' | 'offline' | 'maintenance' | 'provisioning' | 'decommissioned';
              role?: string | null;
              serial_number?: string | null;
              rack_position?: string | null;
              location_id?: string | null;
              last_seen?: string | null;
              tags?: string[];
            }[];
        'text/csv': string;
      };
    };
    responses: {
      /** @description Default Response */
      201: {
        headers: {
          /** @description The version of the record as stored (`"1234567"`; weak, `W/"…"`, when `fields` or `brief` chose the fields): send it in If-Match to change this version only. A create of several records (an array, a CSV file) sends none. */
          ETag?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json':
            | {
                /** Format: uuid */
                id: string;
                hostname: string;
                ip: string;
                vendor: string | null;
                model: string | null;
                os: string | null;
                os_version: string | null;
                status: 'active' | 'offline' | 'maintenance' | 'provisioning' | 'decommissioned';
                role: string | null;
                serial_number: string | null;
                rack_position: string | null;
                location_id: string | null;
                last_seen: string | null;
                tags: string[];
                /** Format: date-time */
                created_at: string;
                /** Format: date-time */
                updated_at: string;
              }
            | {
                /** Format: uuid */
                id: string;
                hostname: string;
                ip: string;
                vendor: string | null;
                model: string | null;
                os: string | null;
                os_version: string | null;
                status: 'active' | 'offline' | 'maintenance' | 'provisioning' | 'decommissioned';
                role: string | null;
                serial_number: string | null;
                rack_position: string | null;
                location_id: string | null;
                last_seen: string | null;
                tags: string[];
                /** Format: date-time */
                created_at: string;
                /** Format: date-time */
                updated_at: string;
              }[];
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Conflict: a unique value is taken, or the change would leave no active admin. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large (BODY_LIMIT). */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Unsupported media type: send a Content-Type the operation reads. */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  deleteDevices: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': string[];
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            status: 'success';
            message: string;
            count: number;
          };
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No such record (a batch: one of the ids names none). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Conflict: a unique value is taken, or the change would leave no active admin. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large (BODY_LIMIT). */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Unsupported media type: send a Content-Type the operation reads. */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  patchDevices: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** Format: uuid */
          id: string;
          hostname?: string;
          ip?: string;
          vendor?: string | null;
          model?: string | null;
          os?: string | null;
          os_version?: string | null;
          status?: 'active' | 'offline' | 'maintenance' | 'provisioning' | 'decommissioned';
          role?: string | null;
          serial_number?: string | null;
          rack_position?: string | null;
          location_id?: string | null;
          last_seen?: string | null;
          tags?: string[];
          /** @description The record's ETag as last read (`"123"`): the batch is refused with 412, and nothing changed, if the record has changed since. */
          etag?: string;
          /** @description Tags to add to those the record has (instead of `tags`). */
          add_tags?: string[];
          /** @description Tags to remove from those the record has (instead of `tags`). */
          remove_tags?: string[];
        }[];
        'text/csv': string;
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            status: 'success';
            message: string;
            count: number;
          };
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No such record (a batch: one of the ids names none). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Conflict: a unique value is taken, or the change would leave no active admin. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Precondition Failed: the record changed since the ETag sent was read; nothing was changed. Read it again (its new ETag) and retry. */
      412: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large (BODY_LIMIT). */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Unsupported media type: send a Content-Type the operation reads. */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getDevicesById: {
    parameters: {
      query?: {
        /** @description Comma-separated fields to return (others are left out): id, created_at, updated_at, hostname, ip, vendor, model, os, os_version, status, role, serial_number, rack_position, location_id, last_seen, tags. */
        fields?: string;
        /** @description Return only the id and the record's name field. */
        brief?: boolean;
      };
      header?: {
        /** @description Reads: answer 304 without a body if the record's ETag is one of these. Writes: 412 and nothing changes if it is (`*`: the record exists). Evaluated after If-Match (RFC 9110 §13.2.2). Grammar (RFC 9110 §13.1): `*`, or a comma-separated list of at most 64 entity tags `"…"` or `W/"…"`; anything else is 400. */
        'if-none-match'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Every field, or only those chosen with `fields` or `brief`. */
      200: {
        headers: {
          /** @description The version of the record as stored (`"1234567"`; weak, `W/"…"`, when `fields` or `brief` chose the fields): send it in If-Match to change this version only. A create of several records (an array, a CSV file) sends none. */
          ETag?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** Format: uuid */
            id?: string;
            hostname?: string;
            ip?: string;
            vendor?: string | null;
            model?: string | null;
            os?: string | null;
            os_version?: string | null;
            status?: 'active' | 'offline' | 'maintenance' | 'provisioning' | 'decommissioned';
            role?: string | null;
            serial_number?: string | null;
            rack_position?: string | null;
            location_id?: string | null;
            last_seen?: string | null;
            tags?: string[];
            /** Format: date-time */
            created_at?: string;
            /** Format: date-time */
            updated_at?: string;
          };
        };
      };
      /** @description Not modified: the ETag sent is current. */
      304: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No such record (a batch: one of the ids names none). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large: a chunked body's extensions over Node's limit. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  putDevicesById: {
    parameters: {
      query?: never;
      header?: {
        /** @description Write only if the record's ETag is one of these (`"123"`, a list, or `*`): else 412 and nothing changes. Grammar (RFC 9110 §13.1): `*`, or a comma-separated list of at most 64 entity tags `"…"` or `W/"…"`; anything else is 400. */
        'if-match'?: string;
        /** @description Reads: answer 304 without a body if the record's ETag is one of these. Writes: 412 and nothing changes if it is (`*`: the record exists). Evaluated after If-Match (RFC 9110 §13.2.2). Grammar (RFC 9110 §13.1): `*`, or a comma-separated list of at most 64 entity tags `"…"` or `W/"…"`; anything else is 400. */
        'if-none-match'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          hostname: string;
          ip: string;
          vendor?: string | null;
          model?: string | null;
          os?: string | null;
          os_version?: string | null;
          status?: 'active' | 'offline' | 'maintenance' | 'provisioning' | 'decommissioned';
          role?: string | null;
          serial_number?: string | null;
          rack_position?: string | null;
          location_id?: string | null;
          last_seen?: string | null;
          tags?: string[];
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          /** @description The version of the record as stored (`"1234567"`; weak, `W/"…"`, when `fields` or `brief` chose the fields): send it in If-Match to change this version only. A create of several records (an array, a CSV file) sends none. */
          ETag?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** Format: uuid */
            id: string;
            hostname: string;
            ip: string;
            vendor: string | null;
            model: string | null;
            os: string | null;
            os_version: string | null;
            status: 'active' | 'offline' | 'maintenance' | 'provisioning' | 'decommissioned';
            role: string | null;
            serial_number: string | null;
            rack_position: string | null;
            location_id: string | null;
            last_seen: string | null;
            tags: string[];
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
          };
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No such record (a batch: one of the ids names none). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Conflict: a unique value is taken, or the change would leave no active admin. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Precondition Failed: the record changed since the ETag sent was read; nothing was changed. Read it again (its new ETag) and retry. */
      412: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large (BODY_LIMIT). */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Unsupported media type: send a Content-Type the operation reads. */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  deleteDevicesById: {
    parameters: {
      query?: never;
      header?: {
        /** @description Write only if the record's ETag is one of these (`"123"`, a list, or `*`): else 412 and nothing changes. Grammar (RFC 9110 §13.1): `*`, or a comma-separated list of at most 64 entity tags `"…"` or `W/"…"`; anything else is 400. */
        'if-match'?: string;
        /** @description Reads: answer 304 without a body if the record's ETag is one of these. Writes: 412 and nothing changes if it is (`*`: the record exists). Evaluated after If-Match (RFC 9110 §13.2.2). Grammar (RFC 9110 §13.1): `*`, or a comma-separated list of at most 64 entity tags `"…"` or `W/"…"`; anything else is 400. */
        'if-none-match'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No such record (a batch: one of the ids names none). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Conflict: a unique value is taken, or the change would leave no active admin. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Precondition Failed: the record changed since the ETag sent was read; nothing was changed. Read it again (its new ETag) and retry. */
      412: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large: a chunked body's extensions over Node's limit. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  patchDevicesById: {
    parameters: {
      query?: never;
      header?: {
        /** @description Write only if the record's ETag is one of these (`"123"`, a list, or `*`): else 412 and nothing changes. Grammar (RFC 9110 §13.1): `*`, or a comma-separated list of at most 64 entity tags `"…"` or `W/"…"`; anything else is 400. */
        'if-match'?: string;
        /** @description Reads: answer 304 without a body if the record's ETag is one of these. Writes: 412 and nothing changes if it is (`*`: the record exists). Evaluated after If-Match (RFC 9110 §13.2.2). Grammar (RFC 9110 §13.1): `*`, or a comma-separated list of at most 64 entity tags `"…"` or `W/"…"`; anything else is 400. */
        'if-none-match'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          hostname?: string;
          ip?: string;
          vendor?: string | null;
          model?: string | null;
          os?: string | null;
          os_version?: string | null;
          status?: 'active' | 'offline' | 'maintenance' | 'provisioning' | 'decommissioned';
          role?: string | null;
          serial_number?: string | null;
          rack_position?: string | null;
          location_id?: string | null;
          last_seen?: string | null;
          tags?: string[];
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          /** @description The version of the record as stored (`"1234567"`; weak, `W/"…"`, when `fields` or `brief` chose the fields): send it in If-Match to change this version only. A create of several records (an array, a CSV file) sends none. */
          ETag?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** Format: uuid */
            id: string;
            hostname: string;
            ip: string;
            vendor: string | null;
            model: string | null;
            os: string | null;
            os_version: string | null;
            status: 'active' | 'offline' | 'maintenance' | 'provisioning' | 'decommissioned';
            role: string | null;
            serial_number: string | null;
            rack_position: string | null;
            location_id: string | null;
            last_seen: string | null;
            tags: string[];
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
          };
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No such record (a batch: one of the ids names none). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Conflict: a unique value is taken, or the change would leave no active admin. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Precondition Failed: the record changed since the ETag sent was read; nothing was changed. Read it again (its new ETag) and retry. */
      412: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large (BODY_LIMIT). */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Unsupported media type: send a Content-Type the operation reads. */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getDevicesByIdHistory: {
    parameters: {
      query?: {
        /** @description Page number (default 1). */
        page?: number;
        /** @description Keyset paging: a previous page's `meta.next_cursor`. Not with `page`; valid only for the same resource, sort and filters. */
        cursor?: string;
        /** @description Comma-separated fields to return (others are left out): id, created_at, user_id, username, action, resource_type, resource_id, changes, prechange, postchange, request_id, client_ip. */
        fields?: string;
        /** @description Return only the id and the record's name field. */
        brief?: boolean;
        /** @description `csv`: every matching row as text/csv (header row of the selected fields; cells starting with = + - @ are prefixed with '; tags joined by commas). Also `Accept: text/csv`. Not with page or cursor. */
        format?: 'json' | 'csv';
        /** @description Items per page, 1 to 100 (default 10). */
        limit?: number;
        /** @description Sort keys applied in the order given (repeat the parameter for more than one); by id last, so the order is total. */
        sortby?: string[];
        user_id?: string;
        action?:
          | 'create'
          | 'replace'
          | 'update'
          | 'delete'
          | 'login'
          | 'login_failed'
          | 'logout'
          | 'password_reset';
        request_id?: string;
        from?: string;
        to?: string;
        /** @description Lookup filters, each its own query parameter `<field>__<lookup>=<value>` (`?hostname__ic=core&vlan_id__gte=100`; the grammar is in the API description). Per field: `user_id`: n in isnull; `action`: n in ic nic isw iew ie isnull; `request_id`: n in lt lte gt gte ic nic isw iew ie isnull; `id`: in. */
        lookups?: {
          /** Format: uuid */
          user_id__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          user_id__in?: string;
          user_id__isnull?: boolean;
          action__n?:
            | 'create'
            | 'replace'
            | 'update'
            | 'delete'
            | 'login'
            | 'login_failed'
            | 'logout'
            | 'password_reset';
          /** @description Comma-separated values (at most 100), each typed like the field. */
          action__in?: string;
          action__ic?: string;
          action__nic?: string;
          action__isw?: string;
          action__iew?: string;
          action__ie?: string;
          action__isnull?: boolean;
          request_id__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          request_id__in?: string;
          request_id__lt?: string;
          request_id__lte?: string;
          request_id__gt?: string;
          request_id__gte?: string;
          request_id__ic?: string;
          request_id__nic?: string;
          request_id__isw?: string;
          request_id__iew?: string;
          request_id__ie?: string;
          request_id__isnull?: boolean;
          /** @description Records by id: comma-separated ids (at most 100). */
          id__in?: string;
        };
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            meta: {
              current_page: number | null;
              limit: number;
              total_pages: number;
              total_count: number;
              next_cursor: string | null;
            };
            data: {
              /** Format: uuid */
              id?: string;
              user_id?: string | null;
              username?: string | null;
              action?:
                | (
                    | 'create'
                    | 'replace'
                    | 'update'
                    | 'delete'
                    | 'login'
                    | 'login_failed'
                    | 'logout'
                    | 'password_reset'
                  )
                | null;
              resource_type?: string | null;
              resource_id?: string | null;
              changes?: {
                [key: string]: unknown;
              } | null;
              prechange?: {
                [key: string]: unknown;
              } | null;
              postchange?: {
                [key: string]: unknown;
              } | null;
              request_id?: string | null;
              client_ip?: string | null;
              /** Format: date-time */
              created_at?: string;
            }[];
          };
          'text/csv': string;
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No such record (a batch: one of the ids names none). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large: a chunked body's extensions over Node's limit. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getDevicesByIdInterfaces: {
    parameters: {
      query?: {
        /** @description Page number (default 1). */
        page?: number;
        /** @description Keyset paging: a previous page's `meta.next_cursor`. Not with `page`; valid only for the same resource, sort and filters. */
        cursor?: string;
        /** @description Comma-separated fields to return (others are left out): id, created_at, updated_at, device_id, name, description, type, speed, speed_mbps, status, admin_status, oper_status, mtu, mac_address, mode, ifindex, ip_address, tags. */
        fields?: string;
        /** @description Return only the id and the record's name field. */
        brief?: boolean;
        /** @description `csv`: every matching row as text/csv (header row of the selected fields; cells starting with = + - @ are prefixed with '; tags joined by commas). Also `Accept: text/csv`. Not with page or cursor. */
        format?: 'json' | 'csv';
        /** @description Items per page, 1 to 100 (default 10). */
        limit?: number;
        /** @description Sort keys applied in the order given (repeat the parameter for more than one); by id last, so the order is total. */
        sortby?: string[];
        name?: string;
        type?: string;
        speed?: string;
        speed_mbps?: number;
        status?: 'up' | 'down';
        admin_status?: 'up' | 'down';
        oper_status?: 'up' | 'down';
        mtu?: number;
        /** @example 00:1a:2b:3c:4d:5e */
        mac_address?: string;
        mode?: string;
        ifindex?: number;
        ip_address?: string;
        tags?: string[];
        /** @description Case-insensitive search in name, description, type, mac_address, ip_address, mode. */
        q?: string;
        /** @description Lookup filters, each its own query parameter `<field>__<lookup>=<value>` (`?hostname__ic=core&vlan_id__gte=100`; the grammar is in the API description). Per field: `name`: n in lt lte gt gte ic nic isw iew ie isnull; `type`: n in lt lte gt gte ic nic isw iew ie isnull; `speed`: n in lt lte gt gte ic nic isw iew ie isnull; `speed_mbps`: n in lt lte gt gte isnull; `status`: n in ic nic isw iew ie isnull; `admin_status`: n in ic nic isw iew ie isnull; `oper_status`: n in ic nic isw iew ie isnull; `mtu`: n in lt lte gt gte isnull; `mac_address`: n in lt lte gt gte ic nic isw iew ie isnull; `mode`: n in lt lte gt gte ic nic isw iew ie isnull; `ifindex`: n in lt lte gt gte isnull; `ip_address`: n in lt lte gt gte isnull; `id`: in. */
        lookups?: {
          name__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          name__in?: string;
          name__lt?: string;
          name__lte?: string;
          name__gt?: string;
          name__gte?: string;
          name__ic?: string;
          name__nic?: string;
          name__isw?: string;
          name__iew?: string;
          name__ie?: string;
          name__isnull?: boolean;
          type__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          type__in?: string;
          type__lt?: string;
          type__lte?: string;
          type__gt?: string;
          type__gte?: string;
          type__ic?: string;
          type__nic?: string;
          type__isw?: string;
          type__iew?: string;
          type__ie?: string;
          type__isnull?: boolean;
          speed__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          speed__in?: string;
          speed__lt?: string;
          speed__lte?: string;
          speed__gt?: string;
          speed__gte?: string;
          speed__ic?: string;
          speed__nic?: string;
          speed__isw?: string;
          speed__iew?: string;
          speed__ie?: string;
          speed__isnull?: boolean;
          speed_mbps__n?: number;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          speed_mbps__in?: string;
          speed_mbps__lt?: number;
          speed_mbps__lte?: number;
          speed_mbps__gt?: number;
          speed_mbps__gte?: number;
          speed_mbps__isnull?: boolean;
          status__n?: 'up' | 'down';
          /** @description Comma-separated values (at most 100), each typed like the field. */
          status__in?: string;
          status__ic?: string;
          status__nic?: string;
          status__isw?: string;
          status__iew?: string;
          status__ie?: string;
          status__isnull?: boolean;
          admin_status__n?: 'up' | 'down';
          /** @description Comma-separated values (at most 100), each typed like the field. */
          admin_status__in?: string;
          admin_status__ic?: string;
          admin_status__nic?: string;
          admin_status__isw?: string;
          admin_status__iew?: string;
          admin_status__ie?: string;
          admin_status__isnull?: boolean;
          oper_status__n?: 'up' | 'down';
          /** @description Comma-separated values (at most 100), each typed like the field. */
          oper_status__in?: string;
          oper_status__ic?: string;
          oper_status__nic?: string;
          oper_status__isw?: string;
          oper_status__iew?: string;
          oper_status__ie?: string;
          oper_status__isnull?: boolean;
          mtu__n?: number;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          mtu__in?: string;
          mtu__lt?: number;
          mtu__lte?: number;
          mtu__gt?: number;
          mtu__gte?: number;
          mtu__isnull?: boolean;
          mac_address__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          mac_address__in?: string;
          mac_address__lt?: string;
          mac_address__lte?: string;
          mac_address__gt?: string;
          mac_address__gte?: string;
          mac_address__ic?: string;
          mac_address__nic?: string;
          mac_address__isw?: string;
          mac_address__iew?: string;
          mac_address__ie?: string;
          mac_address__isnull?: boolean;
          mode__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          mode__in?: string;
          mode__lt?: string;
          mode__lte?: string;
          mode__gt?: string;
          mode__gte?: string;
          mode__ic?: string;
          mode__nic?: string;
          mode__isw?: string;
          mode__iew?: string;
          mode__ie?: string;
          mode__isnull?: boolean;
          ifindex__n?: number;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          ifindex__in?: string;
          ifindex__lt?: number;
          ifindex__lte?: number;
          ifindex__gt?: number;
          ifindex__gte?: number;
          ifindex__isnull?: boolean;
          ip_address__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          ip_address__in?: string;
          ip_address__lt?: string;
          ip_address__lte?: string;
          ip_address__gt?: string;
          ip_address__gte?: string;
          ip_address__isnull?: boolean;
          /** @description Records by id: comma-separated ids (at most 100). */
          id__in?: string;
        };
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            meta: {
              current_page: number | null;
              limit: number;
              total_pages: number;
              total_count: number;
              next_cursor: string | null;
            };
            data: {
              /** Format: uuid */
              id?: string;
              /** Format: uuid */
              device_id?: string;
              name?: string;
              description?: string | null;
              type?: string | null;
              speed?: string | null;
              speed_mbps?: number | null;
              status?: ('up' | 'down') | null;
              admin_status?: ('up' | 'down') | null;
              oper_status?: ('up' | 'down') | null;
              mtu?: number | null;
              mac_address?: string | null;
              mode?: string | null;
              ifindex?: number | null;
              ip_address?: string | null;
              tags?: string[];
              /** Format: date-time */
              created_at?: string;
              /** Format: date-time */
              updated_at?: string;
            }[];
          };
          'text/csv': string;
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No such record (a batch: one of the ids names none). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large: a chunked body's extensions over Node's limit. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getDevicesByIdInterfacecount: {
    parameters: {
      query?: {
        name?: string;
        type?: string;
        speed?: string;
        speed_mbps?: number;
        status?: 'up' | 'down';
        admin_status?: 'up' | 'down';
        oper_status?: 'up' | 'down';
        mtu?: number;
        /** @example 00:1a:2b:3c:4d:5e */
        mac_address?: string;
        mode?: string;
        ifindex?: number;
        ip_address?: string;
        tags?: string[];
        /** @description Case-insensitive search in name, description, type, mac_address, ip_address, mode. */
        q?: string;
        /** @description Lookup filters, each its own query parameter `<field>__<lookup>=<value>` (`?hostname__ic=core&vlan_id__gte=100`; the grammar is in the API description). Per field: `name`: n in lt lte gt gte ic nic isw iew ie isnull; `type`: n in lt lte gt gte ic nic isw iew ie isnull; `speed`: n in lt lte gt gte ic nic isw iew ie isnull; `speed_mbps`: n in lt lte gt gte isnull; `status`: n in ic nic isw iew ie isnull; `admin_status`: n in ic nic isw iew ie isnull; `oper_status`: n in ic nic isw iew ie isnull; `mtu`: n in lt lte gt gte isnull; `mac_address`: n in lt lte gt gte ic nic isw iew ie isnull; `mode`: n in lt lte gt gte ic nic isw iew ie isnull; `ifindex`: n in lt lte gt gte isnull; `ip_address`: n in lt lte gt gte isnull; `id`: in. */
        lookups?: {
          name__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          name__in?: string;
          name__lt?: string;
          name__lte?: string;
          name__gt?: string;
          name__gte?: string;
          name__ic?: string;
          name__nic?: string;
          name__isw?: string;
          name__iew?: string;
          name__ie?: string;
          name__isnull?: boolean;
          type__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          type__in?: string;
          type__lt?: string;
          type__lte?: string;
          type__gt?: string;
          type__gte?: string;
          type__ic?: string;
          type__nic?: string;
          type__isw?: string;
          type__iew?: string;
          type__ie?: string;
          type__isnull?: boolean;
          speed__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          speed__in?: string;
          speed__lt?: string;
          speed__lte?: string;
          speed__gt?: string;
          speed__gte?: string;
          speed__ic?: string;
          speed__nic?: string;
          speed__isw?: string;
          speed__iew?: string;
          speed__ie?: string;
          speed__isnull?: boolean;
          speed_mbps__n?: number;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          speed_mbps__in?: string;
          speed_mbps__lt?: number;
          speed_mbps__lte?: number;
          speed_mbps__gt?: number;
          speed_mbps__gte?: number;
          speed_mbps__isnull?: boolean;
          status__n?: 'up' | 'down';
          /** @description Comma-separated values (at most 100), each typed like the field. */
          status__in?: string;
          status__ic?: string;
          status__nic?: string;
          status__isw?: string;
          status__iew?: string;
          status__ie?: string;
          status__isnull?: boolean;
          admin_status__n?: 'up' | 'down';
          /** @description Comma-separated values (at most 100), each typed like the field. */
          admin_status__in?: string;
          admin_status__ic?: string;
          admin_status__nic?: string;
          admin_status__isw?: string;
          admin_status__iew?: string;
          admin_status__ie?: string;
          admin_status__isnull?: boolean;
          oper_status__n?: 'up' | 'down';
          /** @description Comma-separated values (at most 100), each typed like the field. */
          oper_status__in?: string;
          oper_status__ic?: string;
          oper_status__nic?: string;
          oper_status__isw?: string;
          oper_status__iew?: string;
          oper_status__ie?: string;
          oper_status__isnull?: boolean;
          mtu__n?: number;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          mtu__in?: string;
          mtu__lt?: number;
          mtu__lte?: number;
          mtu__gt?: number;
          mtu__gte?: number;
          mtu__isnull?: boolean;
          mac_address__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          mac_address__in?: string;
          mac_address__lt?: string;
          mac_address__lte?: string;
          mac_address__gt?: string;
          mac_address__gte?: string;
          mac_address__ic?: string;
          mac_address__nic?: string;
          mac_address__isw?: string;
          mac_address__iew?: string;
          mac_address__ie?: string;
          mac_address__isnull?: boolean;
          mode__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          mode__in?: string;
          mode__lt?: string;
          mode__lte?: string;
          mode__gt?: string;
          mode__gte?: string;
          mode__ic?: string;
          mode__nic?: string;
          mode__isw?: string;
          mode__iew?: string;
          mode__ie?: string;
          mode__isnull?: boolean;
          ifindex__n?: number;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          ifindex__in?: string;
          ifindex__lt?: number;
          ifindex__lte?: number;
          ifindex__gt?: number;
          ifindex__gte?: number;
          ifindex__isnull?: boolean;
          ip_address__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          ip_address__in?: string;
          ip_address__lt?: string;
          ip_address__lte?: string;
          ip_address__gt?: string;
          ip_address__gte?: string;
          ip_address__isnull?: boolean;
          /** @description Records by id: comma-separated ids (at most 100). */
          id__in?: string;
        };
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            status: 'success';
            count: number;
          };
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No such record (a batch: one of the ids names none). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large: a chunked body's extensions over Node's limit. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getInterfaces: {
    parameters: {
      query?: {
        /** @description Page number (default 1). */
        page?: number;
        /** @description Keyset paging: a previous page's `meta.next_cursor`. Not with `page`; valid only for the same resource, sort and filters. */
        cursor?: string;
        /** @description Comma-separated fields to return (others are left out): id, created_at, updated_at, device_id, name, description, type, speed, speed_mbps, status, admin_status, oper_status, mtu, mac_address, mode, ifindex, ip_address, tags. */
        fields?: string;
        /** @description Return only the id and the record's name field. */
        brief?: boolean;
        /** @description `csv`: every matching row as text/csv (header row of the selected fields; cells starting with = + - @ are prefixed with '; tags joined by commas). Also `Accept: text/csv`. Not with page or cursor. */
        format?: 'json' | 'csv';
        /** @description Items per page, 1 to 100 (default 10). */
        limit?: number;
        /** @description Sort keys applied in the order given (repeat the parameter for more than one); by id last, so the order is total. */
        sortby?: string[];
        device_id?: string;
        name?: string;
        type?: string;
        speed?: string;
        speed_mbps?: number;
        status?: 'up' | 'down';
        admin_status?: 'up' | 'down';
        oper_status?: 'up' | 'down';
        mtu?: number;
        /** @example 00:1a:2b:3c:4d:5e */
        mac_address?: string;
        mode?: string;
        ifindex?: number;
        ip_address?: string;
        tags?: string[];
        /** @description Case-insensitive search in name, description, type, mac_address, ip_address, mode. */
        q?: string;
        /** @description Lookup filters, each its own query parameter `<field>__<lookup>=<value>` (`?hostname__ic=core&vlan_id__gte=100`; the grammar is in the API description). Per field: `device_id`: n in isnull; `name`: n in lt lte gt gte ic nic isw iew ie isnull; `type`: n in lt lte gt gte ic nic isw iew ie isnull; `speed`: n in lt lte gt gte ic nic isw iew ie isnull; `speed_mbps`: n in lt lte gt gte isnull; `status`: n in ic nic isw iew ie isnull; `admin_status`: n in ic nic isw iew ie isnull; `oper_status`: n in ic nic isw iew ie isnull; `mtu`: n in lt lte gt gte isnull; `mac_address`: n in lt lte gt gte ic nic isw iew ie isnull; `mode`: n in lt lte gt gte ic nic isw iew ie isnull; `ifindex`: n in lt lte gt gte isnull; `ip_address`: n in lt lte gt gte isnull; `id`: in. */
        lookups?: {
          /** Format: uuid */
          device_id__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          device_id__in?: string;
          device_id__isnull?: boolean;
          name__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          name__in?: string;
          name__lt?: string;
          name__lte?: string;
          name__gt?: string;
          name__gte?: string;
          name__ic?: string;
          name__nic?: string;
          name__isw?: string;
          name__iew?: string;
          name__ie?: string;
          name__isnull?: boolean;
          type__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          type__in?: string;
          type__lt?: string;
          type__lte?: string;
          type__gt?: string;
          type__gte?: string;
          type__ic?: string;
          type__nic?: string;
          type__isw?: string;
          type__iew?: string;
          type__ie?: string;
          type__isnull?: boolean;
          speed__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          speed__in?: string;
          speed__lt?: string;
          speed__lte?: string;
          speed__gt?: string;
          speed__gte?: string;
          speed__ic?: string;
          speed__nic?: string;
          speed__isw?: string;
          speed__iew?: string;
          speed__ie?: string;
          speed__isnull?: boolean;
          speed_mbps__n?: number;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          speed_mbps__in?: string;
          speed_mbps__lt?: number;
          speed_mbps__lte?: number;
          speed_mbps__gt?: number;
          speed_mbps__gte?: number;
          speed_mbps__isnull?: boolean;
          status__n?: 'up' | 'down';
          /** @description Comma-separated values (at most 100), each typed like the field. */
          status__in?: string;
          status__ic?: string;
          status__nic?: string;
          status__isw?: string;
          status__iew?: string;
          status__ie?: string;
          status__isnull?: boolean;
          admin_status__n?: 'up' | 'down';
          /** @description Comma-separated values (at most 100), each typed like the field. */
          admin_status__in?: string;
          admin_status__ic?: string;
          admin_status__nic?: string;
          admin_status__isw?: string;
          admin_status__iew?: string;
          admin_status__ie?: string;
          admin_status__isnull?: boolean;
          oper_status__n?: 'up' | 'down';
          /** @description Comma-separated values (at most 100), each typed like the field. */
          oper_status__in?: string;
          oper_status__ic?: string;
          oper_status__nic?: string;
          oper_status__isw?: string;
          oper_status__iew?: string;
          oper_status__ie?: string;
          oper_status__isnull?: boolean;
          mtu__n?: number;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          mtu__in?: string;
          mtu__lt?: number;
          mtu__lte?: number;
          mtu__gt?: number;
          mtu__gte?: number;
          mtu__isnull?: boolean;
          mac_address__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          mac_address__in?: string;
          mac_address__lt?: string;
          mac_address__lte?: string;
          mac_address__gt?: string;
          mac_address__gte?: string;
          mac_address__ic?: string;
          mac_address__nic?: string;
          mac_address__isw?: string;
          mac_address__iew?: string;
          mac_address__ie?: string;
          mac_address__isnull?: boolean;
          mode__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          mode__in?: string;
          mode__lt?: string;
          mode__lte?: string;
          mode__gt?: string;
          mode__gte?: string;
          mode__ic?: string;
          mode__nic?: string;
          mode__isw?: string;
          mode__iew?: string;
          mode__ie?: string;
          mode__isnull?: boolean;
          ifindex__n?: number;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          ifindex__in?: string;
          ifindex__lt?: number;
          ifindex__lte?: number;
          ifindex__gt?: number;
          ifindex__gte?: number;
          ifindex__isnull?: boolean;
          ip_address__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          ip_address__in?: string;
          ip_address__lt?: string;
          ip_address__lte?: string;
          ip_address__gt?: string;
          ip_address__gte?: string;
          ip_address__isnull?: boolean;
          /** @description Records by id: comma-separated ids (at most 100). */
          id__in?: string;
        };
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            meta: {
              current_page: number | null;
              limit: number;
              total_pages: number;
              total_count: number;
              next_cursor: string | null;
            };
            data: {
              /** Format: uuid */
              id?: string;
              /** Format: uuid */
              device_id?: string;
              name?: string;
              description?: string | null;
              type?: string | null;
              speed?: string | null;
              speed_mbps?: number | null;
              status?: ('up' | 'down') | null;
              admin_status?: ('up' | 'down') | null;
              oper_status?: ('up' | 'down') | null;
              mtu?: number | null;
              mac_address?: string | null;
              mode?: string | null;
              ifindex?: number | null;
              ip_address?: string | null;
              tags?: string[];
              /** Format: date-time */
              created_at?: string;
              /** Format: date-time */
              updated_at?: string;
            }[];
          };
          'text/csv': string;
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large: a chunked body's extensions over Node's limit. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  postInterfaces: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** @description One record, or an array of 1 to 1000 created all or none. */
    requestBody: {
      content: {
        /**
         * @example {
         *       "device_id": "00000000-0000-4000-8000-000000000000",
         *       "name": "example-name",
         *       "tags": []
         *     }
         */
        'application/json':
          | {
              /** Format: uuid */
              device_id: string;
              name: string;
              description?: string | null;
              type?: string | null;
              /** @description The value of `speed_mbps` in another form: a write giving either sets both (null clears both; both given must agree, else 400). */
              speed?: string | null;
              /** @description The value of `speed` in another form: a write giving either sets both (null clears both; both given must agree, else 400). */
              speed_mbps?: number | null;
              status?: ('up' | 'down') | null;
              admin_status?: ('up' | 'down') | null;
              oper_status?: ('up' | 'down') | null;
              mtu?: number | null;
              mac_address?: string | null;
              mode?: string | null;
              ifindex?: number | null;
              ip_address?: string | null;
              tags?: string[];
            }
          | {
              /** Format: uuid */
              device_id: string;
              name: string;
              description?: string | null;
              type?: string | null;
              /** @description The value of `speed_mbps` in another form: a write giving either sets both (null clears both; both given must agree, else 400). */
              speed?: string | null;
              /** @description The value of `speed` in another form: a write giving either sets both (null clears both; both given must agree, else 400). */
              speed_mbps?: number | null;
              status?: ('up' | 'down') | null;
              admin_status?: ('up' | 'down') | null;
              oper_status?: ('up' | 'down') | null;
              mtu?: number | null;
              mac_address?: string | null;
              mode?: string | null;
              ifindex?: number | null;
              ip_address?: string | null;
              tags?: string[];
            }[];
        'text/csv': string;
      };
    };
    responses: {
      /** @description Default Response */
      201: {
        headers: {
          /** @description The version of the record as stored (`"1234567"`; weak, `W/"…"`, when `fields` or `brief` chose the fields): send it in If-Match to change this version only. A create of several records (an array, a CSV file) sends none. */
          ETag?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json':
            | {
                /** Format: uuid */
                id: string;
                /** Format: uuid */
                device_id: string;
                name: string;
                description: string | null;
                type: string | null;
                speed: string | null;
                speed_mbps: number | null;
                status: ('up' | 'down') | null;
                admin_status: ('up' | 'down') | null;
                oper_status: ('up' | 'down') | null;
                mtu: number | null;
                mac_address: string | null;
                mode: string | null;
                ifindex: number | null;
                ip_address: string | null;
                tags: string[];
                /** Format: date-time */
                created_at: string;
                /** Format: date-time */
                updated_at: string;
              }
            | {
                /** Format: uuid */
                id: string;
                /** Format: uuid */
                device_id: string;
                name: string;
                description: string | null;
                type: string | null;
                speed: string | null;
                speed_mbps: number | null;
                status: ('up' | 'down') | null;
                admin_status: ('up' | 'down') | null;
                oper_status: ('up' | 'down') | null;
                mtu: number | null;
                mac_address: string | null;
                mode: string | null;
                ifindex: number | null;
                ip_address: string | null;
                tags: string[];
                /** Format: date-time */
                created_at: string;
                /** Format: date-time */
                updated_at: string;
              }[];
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Conflict: a unique value is taken, or the change would leave no active admin. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large (BODY_LIMIT). */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Unsupported media type: send a Content-Type the operation reads. */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  deleteInterfaces: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': string[];
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            status: 'success';
            message: string;
            count: number;
          };
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No such record (a batch: one of the ids names none). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Conflict: a unique value is taken, or the change would leave no active admin. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large (BODY_LIMIT). */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Unsupported media type: send a Content-Type the operation reads. */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  patchInterfaces: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** Format: uuid */
          id: string;
          /** Format: uuid */
          device_id?: string;
          name?: string;
          description?: string | null;
          type?: string | null;
          /** @description The value of `speed_mbps` in another form: a write giving either sets both (null clears both; both given must agree, else 400). */
          speed?: string | null;
          /** @description The value of `speed` in another form: a write giving either sets both (null clears both; both given must agree, else 400). */
          speed_mbps?: number | null;
          status?: ('up' | 'down') | null;
          admin_status?: ('up' | 'down') | null;
          oper_status?: ('up' | 'down') | null;
          mtu?: number | null;
          mac_address?: string | null;
          mode?: string | null;
          ifindex?: number | null;
          ip_address?: string | null;
          tags?: string[];
          /** @description The record's ETag as last read (`"123"`): the batch is refused with 412, and nothing changed, if the record has changed since. */
          etag?: string;
          /** @description Tags to add to those the record has (instead of `tags`). */
          add_tags?: string[];
          /** @description Tags to remove from those the record has (instead of `tags`). */
          remove_tags?: string[];
        }[];
        'text/csv': string;
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            status: 'success';
            message: string;
            count: number;
          };
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No such record (a batch: one of the ids names none). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Conflict: a unique value is taken, or the change would leave no active admin. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Precondition Failed: the record changed since the ETag sent was read; nothing was changed. Read it again (its new ETag) and retry. */
      412: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large (BODY_LIMIT). */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Unsupported media type: send a Content-Type the operation reads. */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getInterfacesById: {
    parameters: {
      query?: {
        /** @description Comma-separated fields to return (others are left out): id, created_at, updated_at, device_id, name, description, type, speed, speed_mbps, status, admin_status, oper_status, mtu, mac_address, mode, ifindex, ip_address, tags. */
        fields?: string;
        /** @description Return only the id and the record's name field. */
        brief?: boolean;
      };
      header?: {
        /** @description Reads: answer 304 without a body if the record's ETag is one of these. Writes: 412 and nothing changes if it is (`*`: the record exists). Evaluated after If-Match (RFC 9110 §13.2.2). Grammar (RFC 9110 §13.1): `*`, or a comma-separated list of at most 64 entity tags `"…"` or `W/"…"`; anything else is 400. */
        'if-none-match'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Every field, or only those chosen with `fields` or `brief`. */
      200: {
        headers: {
          /** @description The version of the record as stored (`"1234567"`; weak, `W/"…"`, when `fields` or `brief` chose the fields): send it in If-Match to change this version only. A create of several records (an array, a CSV file) sends none. */
          ETag?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** Format: uuid */
            id?: string;
            /** Format: uuid */
            device_id?: string;
            name?: string;
            description?: string | null;
            type?: string | null;
            speed?: string | null;
            speed_mbps?: number | null;
            status?: ('up' | 'down') | null;
            admin_status?: ('up' | 'down') | null;
            oper_status?: ('up' | 'down') | null;
            mtu?: number | null;
            mac_address?: string | null;
            mode?: string | null;
            ifindex?: number | null;
            ip_address?: string | null;
            tags?: string[];
            /** Format: date-time */
            created_at?: string;
            /** Format: date-time */
            updated_at?: string;
          };
        };
      };
      /** @description Not modified: the ETag sent is current. */
      304: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No such record (a batch: one of the ids names none). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large: a chunked body's extensions over Node's limit. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  putInterfacesById: {
    parameters: {
      query?: never;
      header?: {
        /** @description Write only if the record's ETag is one of these (`"123"`, a list, or `*`): else 412 and nothing changes. Grammar (RFC 9110 §13.1): `*`, or a comma-separated list of at most 64 entity tags `"…"` or `W/"…"`; anything else is 400. */
        'if-match'?: string;
        /** @description Reads: answer 304 without a body if the record's ETag is one of these. Writes: 412 and nothing changes if it is (`*`: the record exists). Evaluated after If-Match (RFC 9110 §13.2.2). Grammar (RFC 9110 §13.1): `*`, or a comma-separated list of at most 64 entity tags `"…"` or `W/"…"`; anything else is 400. */
        'if-none-match'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** Format: uuid */
          device_id: string;
          name: string;
          description?: string | null;
          type?: string | null;
          /** @description The value of `speed_mbps` in another form: a write giving either sets both (null clears both; both given must agree, else 400). */
          speed?: string | null;
          /** @description The value of `speed` in another form: a write giving either sets both (null clears both; both given must agree, else 400). */
          speed_mbps?: number | null;
          status?: ('up' | 'down') | null;
          admin_status?: ('up' | 'down') | null;
          oper_status?: ('up' | 'down') | null;
          mtu?: number | null;
          mac_address?: string | null;
          mode?: string | null;
          ifindex?: number | null;
          ip_address?: string | null;
          tags?: string[];
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          /** @description The version of the record as stored (`"1234567"`; weak, `W/"…"`, when `fields` or `brief` chose the fields): send it in If-Match to change this version only. A create of several records (an array, a CSV file) sends none. */
          ETag?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            device_id: string;
            name: string;
            description: string | null;
            type: string | null;
            speed: string | null;
            speed_mbps: number | null;
            status: ('up' | 'down') | null;
            admin_status: ('up' | 'down') | null;
            oper_status: ('up' | 'down') | null;
            mtu: number | null;
            mac_address: string | null;
            mode: string | null;
            ifindex: number | null;
            ip_address: string | null;
            tags: string[];
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
          };
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No such record (a batch: one of the ids names none). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Conflict: a unique value is taken, or the change would leave no active admin. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Precondition Failed: the record changed since the ETag sent was read; nothing was changed. Read it again (its new ETag) and retry. */
      412: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large (BODY_LIMIT). */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Unsupported media type: send a Content-Type the operation reads. */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  deleteInterfacesById: {
    parameters: {
      query?: never;
      header?: {
        /** @description Write only if the record's ETag is one of these (`"123"`, a list, or `*`): else 412 and nothing changes. Grammar (RFC 9110 §13.1): `*`, or a comma-separated list of at most 64 entity tags `"…"` or `W/"…"`; anything else is 400. */
        'if-match'?: string;
        /** @description Reads: answer 304 without a body if the record's ETag is one of these. Writes: 412 and nothing changes if it is (`*`: the record exists). Evaluated after If-Match (RFC 9110 §13.2.2). Grammar (RFC 9110 §13.1): `*`, or a comma-separated list of at most 64 entity tags `"…"` or `W/"…"`; anything else is 400. */
        'if-none-match'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No such record (a batch: one of the ids names none). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Conflict: a unique value is taken, or the change would leave no active admin. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Precondition Failed: the record changed since the ETag sent was read; nothing was changed. Read it again (its new ETag) and retry. */
      412: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large: a chunked body's extensions over Node's limit. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  patchInterfacesById: {
    parameters: {
      query?: never;
      header?: {
        /** @description Write only if the record's ETag is one of these (`"123"`, a list, or `*`): else 412 and nothing changes. Grammar (RFC 9110 §13.1): `*`, or a comma-separated list of at most 64 entity tags `"…"` or `W/"…"`; anything else is 400. */
        'if-match'?: string;
        /** @description Reads: answer 304 without a body if the record's ETag is one of these. Writes: 412 and nothing changes if it is (`*`: the record exists). Evaluated after If-Match (RFC 9110 §13.2.2). Grammar (RFC 9110 §13.1): `*`, or a comma-separated list of at most 64 entity tags `"…"` or `W/"…"`; anything else is 400. */
        'if-none-match'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** Format: uuid */
          device_id?: string;
          name?: string;
          description?: string | null;
          type?: string | null;
          /** @description The value of `speed_mbps` in another form: a write giving either sets both (null clears both; both given must agree, else 400). */
          speed?: string | null;
          /** @description The value of `speed` in another form: a write giving either sets both (null clears both; both given must agree, else 400). */
          speed_mbps?: number | null;
          status?: ('up' | 'down') | null;
          admin_status?: ('up' | 'down') | null;
          oper_status?: ('up' | 'down') | null;
          mtu?: number | null;
          mac_address?: string | null;
          mode?: string | null;
          ifindex?: number | null;
          ip_address?: string | null;
          tags?: string[];
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          /** @description The version of the record as stored (`"1234567"`; weak, `W/"…"`, when `fields` or `brief` chose the fields): send it in If-Match to change this version only. A create of several records (an array, a CSV file) sends none. */
          ETag?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            device_id: string;
            name: string;
            description: string | null;
            type: string | null;
            speed: string | null;
            speed_mbps: number | null;
            status: ('up' | 'down') | null;
            admin_status: ('up' | 'down') | null;
            oper_status: ('up' | 'down') | null;
            mtu: number | null;
            mac_address: string | null;
            mode: string | null;
            ifindex: number | null;
            ip_address: string | null;
            tags: string[];
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
          };
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No such record (a batch: one of the ids names none). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Conflict: a unique value is taken, or the change would leave no active admin. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Precondition Failed: the record changed since the ETag sent was read; nothing was changed. Read it again (its new ETag) and retry. */
      412: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large (BODY_LIMIT). */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Unsupported media type: send a Content-Type the operation reads. */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getInterfacesByIdHistory: {
    parameters: {
      query?: {
        /** @description Page number (default 1). */
        page?: number;
        /** @description Keyset paging: a previous page's `meta.next_cursor`. Not with `page`; valid only for the same resource, sort and filters. */
        cursor?: string;
        /** @description Comma-separated fields to return (others are left out): id, created_at, user_id, username, action, resource_type, resource_id, changes, prechange, postchange, request_id, client_ip. */
        fields?: string;
        /** @description Return only the id and the record's name field. */
        brief?: boolean;
        /** @description `csv`: every matching row as text/csv (header row of the selected fields; cells starting with = + - @ are prefixed with '; tags joined by commas). Also `Accept: text/csv`. Not with page or cursor. */
        format?: 'json' | 'csv';
        /** @description Items per page, 1 to 100 (default 10). */
        limit?: number;
        /** @description Sort keys applied in the order given (repeat the parameter for more than one); by id last, so the order is total. */
        sortby?: string[];
        user_id?: string;
        action?:
          | 'create'
          | 'replace'
          | 'update'
          | 'delete'
          | 'login'
          | 'login_failed'
          | 'logout'
          | 'password_reset';
        request_id?: string;
        from?: string;
        to?: string;
        /** @description Lookup filters, each its own query parameter `<field>__<lookup>=<value>` (`?hostname__ic=core&vlan_id__gte=100`; the grammar is in the API description). Per field: `user_id`: n in isnull; `action`: n in ic nic isw iew ie isnull; `request_id`: n in lt lte gt gte ic nic isw iew ie isnull; `id`: in. */
        lookups?: {
          /** Format: uuid */
          user_id__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          user_id__in?: string;
          user_id__isnull?: boolean;
          action__n?:
            | 'create'
            | 'replace'
            | 'update'
            | 'delete'
            | 'login'
            | 'login_failed'
            | 'logout'
            | 'password_reset';
          /** @description Comma-separated values (at most 100), each typed like the field. */
          action__in?: string;
          action__ic?: string;
          action__nic?: string;
          action__isw?: string;
          action__iew?: string;
          action__ie?: string;
          action__isnull?: boolean;
          request_id__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          request_id__in?: string;
          request_id__lt?: string;
          request_id__lte?: string;
          request_id__gt?: string;
          request_id__gte?: string;
          request_id__ic?: string;
          request_id__nic?: string;
          request_id__isw?: string;
          request_id__iew?: string;
          request_id__ie?: string;
          request_id__isnull?: boolean;
          /** @description Records by id: comma-separated ids (at most 100). */
          id__in?: string;
        };
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            meta: {
              current_page: number | null;
              limit: number;
              total_pages: number;
              total_count: number;
              next_cursor: string | null;
            };
            data: {
              /** Format: uuid */
              id?: string;
              user_id?: string | null;
              username?: string | null;
              action?:
                | (
                    | 'create'
                    | 'replace'
                    | 'update'
                    | 'delete'
                    | 'login'
                    | 'login_failed'
                    | 'logout'
                    | 'password_reset'
                  )
                | null;
              resource_type?: string | null;
              resource_id?: string | null;
              changes?: {
                [key: string]: unknown;
              } | null;
              prechange?: {
                [key: string]: unknown;
              } | null;
              postchange?: {
                [key: string]: unknown;
              } | null;
              request_id?: string | null;
              client_ip?: string | null;
              /** Format: date-time */
              created_at?: string;
            }[];
          };
          'text/csv': string;
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No such record (a batch: one of the ids names none). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large: a chunked body's extensions over Node's limit. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getVlans: {
    parameters: {
      query?: {
        /** @description Page number (default 1). */
        page?: number;
        /** @description Keyset paging: a previous page's `meta.next_cursor`. Not with `page`; valid only for the same resource, sort and filters. */
        cursor?: string;
        /** @description Comma-separated fields to return (others are left out): id, created_at, updated_at, vlan_id, name, description, status, tags. */
        fields?: string;
        /** @description Return only the id and the record's name field. */
        brief?: boolean;
        /** @description `csv`: every matching row as text/csv (header row of the selected fields; cells starting with = + - @ are prefixed with '; tags joined by commas). Also `Accept: text/csv`. Not with page or cursor. */
        format?: 'json' | 'csv';
        /** @description Items per page, 1 to 100 (default 10). */
        limit?: number;
        /** @description Sort keys applied in the order given (repeat the parameter for more than one); by id last, so the order is total. */
        sortby?: string[];
        vlan_id?: number;
        name?: string;
        status?: string;
        tags?: string[];
        /** @description Case-insensitive search in name, description, status. */
        q?: string;
        /** @description Lookup filters, each its own query parameter `<field>__<lookup>=<value>` (`?hostname__ic=core&vlan_id__gte=100`; the grammar is in the API description). Per field: `vlan_id`: n in lt lte gt gte isnull; `name`: n in lt lte gt gte ic nic isw iew ie isnull; `status`: n in lt lte gt gte ic nic isw iew ie isnull; `id`: in. */
        lookups?: {
          vlan_id__n?: number;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          vlan_id__in?: string;
          vlan_id__lt?: number;
          vlan_id__lte?: number;
          vlan_id__gt?: number;
          vlan_id__gte?: number;
          vlan_id__isnull?: boolean;
          name__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          name__in?: string;
          name__lt?: string;
          name__lte?: string;
          name__gt?: string;
          name__gte?: string;
          name__ic?: string;
          name__nic?: string;
          name__isw?: string;
          name__iew?: string;
          name__ie?: string;
          name__isnull?: boolean;
          status__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          status__in?: string;
          status__lt?: string;
          status__lte?: string;
          status__gt?: string;
          status__gte?: string;
          status__ic?: string;
          status__nic?: string;
          status__isw?: string;
          status__iew?: string;
          status__ie?: string;
          status__isnull?: boolean;
          /** @description Records by id: comma-separated ids (at most 100). */
          id__in?: string;
        };
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            meta: {
              current_page: number | null;
              limit: number;
              total_pages: number;
              total_count: number;
              next_cursor: string | null;
            };
            data: {
              /** Format: uuid */
              id?: string;
              vlan_id?: number;
              name?: string;
              description?: string | null;
              status?: string | null;
              tags?: string[];
              /** Format: date-time */
              created_at?: string;
              /** Format: date-time */
              updated_at?: string;
            }[];
          };
          'text/csv': string;
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large: a chunked body's extensions over Node's limit. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  postVlans: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** @description One record, or an array of 1 to 1000 created all or none. */
    requestBody: {
      content: {
        /**
         * @example {
         *       "vlan_id": 1,
         *       "name": "example-name",
         *       "tags": []
         *     }
         */
        'application/json':
          | {
              vlan_id: number;
              name: string;
              description?: string | null;
              status?: string | null;
              tags?: string[];
            }
          | {
              vlan_id: number;
              name: string;
              description?: string | null;
              status?: string | null;
              tags?: string[];
            }[];
        'text/csv': string;
      };
    };
    responses: {
      /** @description Default Response */
      201: {
        headers: {
          /** @description The version of the record as stored (`"1234567"`; weak, `W/"…"`, when `fields` or `brief` chose the fields): send it in If-Match to change this version only. A create of several records (an array, a CSV file) sends none. */
          ETag?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json':
            | {
                /** Format: uuid */
                id: string;
                vlan_id: number;
                name: string;
                description: string | null;
                status: string | null;
                tags: string[];
                /** Format: date-time */
                created_at: string;
                /** Format: date-time */
                updated_at: string;
              }
            | {
                /** Format: uuid */
                id: string;
                vlan_id: number;
                name: string;
                description: string | null;
                status: string | null;
                tags: string[];
                /** Format: date-time */
                created_at: string;
                /** Format: date-time */
                updated_at: string;
              }[];
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Conflict: a unique value is taken, or the change would leave no active admin. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large (BODY_LIMIT). */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Unsupported media type: send a Content-Type the operation reads. */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  deleteVlans: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': string[];
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            status: 'success';
            message: string;
            count: number;
          };
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No such record (a batch: one of the ids names none). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Conflict: a unique value is taken, or the change would leave no active admin. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large (BODY_LIMIT). */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Unsupported media type: send a Content-Type the operation reads. */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  patchVlans: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** Format: uuid */
          id: string;
          vlan_id?: number;
          name?: string;
          description?: string | null;
          status?: string | null;
          tags?: string[];
          /** @description The record's ETag as last read (`"123"`): the batch is refused with 412, and nothing changed, if the record has changed since. */
          etag?: string;
          /** @description Tags to add to those the record has (instead of `tags`). */
          add_tags?: string[];
          /** @description Tags to remove from those the record has (instead of `tags`). */
          remove_tags?: string[];
        }[];
        'text/csv': string;
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            status: 'success';
            message: string;
            count: number;
          };
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No such record (a batch: one of the ids names none). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Conflict: a unique value is taken, or the change would leave no active admin. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Precondition Failed: the record changed since the ETag sent was read; nothing was changed. Read it again (its new ETag) and retry. */
      412: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large (BODY_LIMIT). */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Unsupported media type: send a Content-Type the operation reads. */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getVlansById: {
    parameters: {
      query?: {
        /** @description Comma-separated fields to return (others are left out): id, created_at, updated_at, vlan_id, name, description, status, tags. */
        fields?: string;
        /** @description Return only the id and the record's name field. */
        brief?: boolean;
      };
      header?: {
        /** @description Reads: answer 304 without a body if the record's ETag is one of these. Writes: 412 and nothing changes if it is (`*`: the record exists). Evaluated after If-Match (RFC 9110 §13.2.2). Grammar (RFC 9110 §13.1): `*`, or a comma-separated list of at most 64 entity tags `"…"` or `W/"…"`; anything else is 400. */
        'if-none-match'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Every field, or only those chosen with `fields` or `brief`. */
      200: {
        headers: {
          /** @description The version of the record as stored (`"1234567"`; weak, `W/"…"`, when `fields` or `brief` chose the fields): send it in If-Match to change this version only. A create of several records (an array, a CSV file) sends none. */
          ETag?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** Format: uuid */
            id?: string;
            vlan_id?: number;
            name?: string;
            description?: string | null;
            status?: string | null;
            tags?: string[];
            /** Format: date-time */
            created_at?: string;
            /** Format: date-time */
            updated_at?: string;
          };
        };
      };
      /** @description Not modified: the ETag sent is current. */
      304: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No such record (a batch: one of the ids names none). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large: a chunked body's extensions over Node's limit. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  putVlansById: {
    parameters: {
      query?: never;
      header?: {
        /** @description Write only if the record's ETag is one of these (`"123"`, a list, or `*`): else 412 and nothing changes. Grammar (RFC 9110 §13.1): `*`, or a comma-separated list of at most 64 entity tags `"…"` or `W/"…"`; anything else is 400. */
        'if-match'?: string;
        /** @description Reads: answer 304 without a body if the record's ETag is one of these. Writes: 412 and nothing changes if it is (`*`: the record exists). Evaluated after If-Match (RFC 9110 §13.2.2). Grammar (RFC 9110 §13.1): `*`, or a comma-separated list of at most 64 entity tags `"…"` or `W/"…"`; anything else is 400. */
        'if-none-match'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          vlan_id: number;
          name: string;
          description?: string | null;
          status?: string | null;
          tags?: string[];
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          /** @description The version of the record as stored (`"1234567"`; weak, `W/"…"`, when `fields` or `brief` chose the fields): send it in If-Match to change this version only. A create of several records (an array, a CSV file) sends none. */
          ETag?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** Format: uuid */
            id: string;
            vlan_id: number;
            name: string;
            description: string | null;
            status: string | null;
            tags: string[];
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
          };
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No such record (a batch: one of the ids names none). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Conflict: a unique value is taken, or the change would leave no active admin. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Precondition Failed: the record changed since the ETag sent was read; nothing was changed. Read it again (its new ETag) and retry. */
      412: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large (BODY_LIMIT). */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Unsupported media type: send a Content-Type the operation reads. */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  deleteVlansById: {
    parameters: {
      query?: never;
      header?: {
        /** @description Write only if the record's ETag is one of these (`"123"`, a list, or `*`): else 412 and nothing changes. Grammar (RFC 9110 §13.1): `*`, or a comma-separated list of at most 64 entity tags `"…"` or `W/"…"`; anything else is 400. */
        'if-match'?: string;
        /** @description Reads: answer 304 without a body if the record's ETag is one of these. Writes: 412 and nothing changes if it is (`*`: the record exists). Evaluated after If-Match (RFC 9110 §13.2.2). Grammar (RFC 9110 §13.1): `*`, or a comma-separated list of at most 64 entity tags `"…"` or `W/"…"`; anything else is 400. */
        'if-none-match'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No such record (a batch: one of the ids names none). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Conflict: a unique value is taken, or the change would leave no active admin. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Precondition Failed: the record changed since the ETag sent was read; nothing was changed. Read it again (its new ETag) and retry. */
      412: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large: a chunked body's extensions over Node's limit. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  patchVlansById: {
    parameters: {
      query?: never;
      header?: {
        /** @description Write only if the record's ETag is one of these (`"123"`, a list, or `*`): else 412 and nothing changes. Grammar (RFC 9110 §13.1): `*`, or a comma-separated list of at most 64 entity tags `"…"` or `W/"…"`; anything else is 400. */
        'if-match'?: string;
        /** @description Reads: answer 304 without a body if the record's ETag is one of these. Writes: 412 and nothing changes if it is (`*`: the record exists). Evaluated after If-Match (RFC 9110 §13.2.2). Grammar (RFC 9110 §13.1): `*`, or a comma-separated list of at most 64 entity tags `"…"` or `W/"…"`; anything else is 400. */
        'if-none-match'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          vlan_id?: number;
          name?: string;
          description?: string | null;
          status?: string | null;
          tags?: string[];
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          /** @description The version of the record as stored (`"1234567"`; weak, `W/"…"`, when `fields` or `brief` chose the fields): send it in If-Match to change this version only. A create of several records (an array, a CSV file) sends none. */
          ETag?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** Format: uuid */
            id: string;
            vlan_id: number;
            name: string;
            description: string | null;
            status: string | null;
            tags: string[];
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
          };
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No such record (a batch: one of the ids names none). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Conflict: a unique value is taken, or the change would leave no active admin. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Precondition Failed: the record changed since the ETag sent was read; nothing was changed. Read it again (its new ETag) and retry. */
      412: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large (BODY_LIMIT). */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Unsupported media type: send a Content-Type the operation reads. */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getVlansByIdHistory: {
    parameters: {
      query?: {
        /** @description Page number (default 1). */
        page?: number;
        /** @description Keyset paging: a previous page's `meta.next_cursor`. Not with `page`; valid only for the same resource, sort and filters. */
        cursor?: string;
        /** @description Comma-separated fields to return (others are left out): id, created_at, user_id, username, action, resource_type, resource_id, changes, prechange, postchange, request_id, client_ip. */
        fields?: string;
        /** @description Return only the id and the record's name field. */
        brief?: boolean;
        /** @description `csv`: every matching row as text/csv (header row of the selected fields; cells starting with = + - @ are prefixed with '; tags joined by commas). Also `Accept: text/csv`. Not with page or cursor. */
        format?: 'json' | 'csv';
        /** @description Items per page, 1 to 100 (default 10). */
        limit?: number;
        /** @description Sort keys applied in the order given (repeat the parameter for more than one); by id last, so the order is total. */
        sortby?: string[];
        user_id?: string;
        action?:
          | 'create'
          | 'replace'
          | 'update'
          | 'delete'
          | 'login'
          | 'login_failed'
          | 'logout'
          | 'password_reset';
        request_id?: string;
        from?: string;
        to?: string;
        /** @description Lookup filters, each its own query parameter `<field>__<lookup>=<value>` (`?hostname__ic=core&vlan_id__gte=100`; the grammar is in the API description). Per field: `user_id`: n in isnull; `action`: n in ic nic isw iew ie isnull; `request_id`: n in lt lte gt gte ic nic isw iew ie isnull; `id`: in. */
        lookups?: {
          /** Format: uuid */
          user_id__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          user_id__in?: string;
          user_id__isnull?: boolean;
          action__n?:
            | 'create'
            | 'replace'
            | 'update'
            | 'delete'
            | 'login'
            | 'login_failed'
            | 'logout'
            | 'password_reset';
          /** @description Comma-separated values (at most 100), each typed like the field. */
          action__in?: string;
          action__ic?: string;
          action__nic?: string;
          action__isw?: string;
          action__iew?: string;
          action__ie?: string;
          action__isnull?: boolean;
          request_id__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          request_id__in?: string;
          request_id__lt?: string;
          request_id__lte?: string;
          request_id__gt?: string;
          request_id__gte?: string;
          request_id__ic?: string;
          request_id__nic?: string;
          request_id__isw?: string;
          request_id__iew?: string;
          request_id__ie?: string;
          request_id__isnull?: boolean;
          /** @description Records by id: comma-separated ids (at most 100). */
          id__in?: string;
        };
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            meta: {
              current_page: number | null;
              limit: number;
              total_pages: number;
              total_count: number;
              next_cursor: string | null;
            };
            data: {
              /** Format: uuid */
              id?: string;
              user_id?: string | null;
              username?: string | null;
              action?:
                | (
                    | 'create'
                    | 'replace'
                    | 'update'
                    | 'delete'
                    | 'login'
                    | 'login_failed'
                    | 'logout'
                    | 'password_reset'
                  )
                | null;
              resource_type?: string | null;
              resource_id?: string | null;
              changes?: {
                [key: string]: unknown;
              } | null;
              prechange?: {
                [key: string]: unknown;
              } | null;
              postchange?: {
                [key: string]: unknown;
              } | null;
              request_id?: string | null;
              client_ip?: string | null;
              /** Format: date-time */
              created_at?: string;
            }[];
          };
          'text/csv': string;
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No such record (a batch: one of the ids names none). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large: a chunked body's extensions over Node's limit. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getLinks: {
    parameters: {
      query?: {
        /** @description Page number (default 1). */
        page?: number;
        /** @description Keyset paging: a previous page's `meta.next_cursor`. Not with `page`; valid only for the same resource, sort and filters. */
        cursor?: string;
        /** @description Comma-separated fields to return (others are left out): id, created_at, updated_at, a_interface_id, b_interface_id, type, status, tags. */
        fields?: string;
        /** @description Return only the id and the record's name field. */
        brief?: boolean;
        /** @description `csv`: every matching row as text/csv (header row of the selected fields; cells starting with = + - @ are prefixed with '; tags joined by commas). Also `Accept: text/csv`. Not with page or cursor. */
        format?: 'json' | 'csv';
        /** @description Items per page, 1 to 100 (default 10). */
        limit?: number;
        /** @description Sort keys applied in the order given (repeat the parameter for more than one); by id last, so the order is total. */
        sortby?: string[];
        a_interface_id?: string;
        b_interface_id?: string;
        type?: string;
        status?: 'up' | 'down';
        tags?: string[];
        /** @description Case-insensitive search in type, status. */
        q?: string;
        /** @description Lookup filters, each its own query parameter `<field>__<lookup>=<value>` (`?hostname__ic=core&vlan_id__gte=100`; the grammar is in the API description). Per field: `a_interface_id`: n in isnull; `b_interface_id`: n in isnull; `type`: n in lt lte gt gte ic nic isw iew ie isnull; `status`: n in ic nic isw iew ie isnull; `id`: in. */
        lookups?: {
          /** Format: uuid */
          a_interface_id__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          a_interface_id__in?: string;
          a_interface_id__isnull?: boolean;
          /** Format: uuid */
          b_interface_id__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          b_interface_id__in?: string;
          b_interface_id__isnull?: boolean;
          type__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          type__in?: string;
          type__lt?: string;
          type__lte?: string;
          type__gt?: string;
          type__gte?: string;
          type__ic?: string;
          type__nic?: string;
          type__isw?: string;
          type__iew?: string;
          type__ie?: string;
          type__isnull?: boolean;
          status__n?: 'up' | 'down';
          /** @description Comma-separated values (at most 100), each typed like the field. */
          status__in?: string;
          status__ic?: string;
          status__nic?: string;
          status__isw?: string;
          status__iew?: string;
          status__ie?: string;
          status__isnull?: boolean;
          /** @description Records by id: comma-separated ids (at most 100). */
          id__in?: string;
        };
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            meta: {
              current_page: number | null;
              limit: number;
              total_pages: number;
              total_count: number;
              next_cursor: string | null;
            };
            data: {
              /** Format: uuid */
              id?: string;
              /** Format: uuid */
              a_interface_id?: string;
              /** Format: uuid */
              b_interface_id?: string;
              type?: string | null;
              status?: 'up' | 'down';
              tags?: string[];
              /** Format: date-time */
              created_at?: string;
              /** Format: date-time */
              updated_at?: string;
            }[];
          };
          'text/csv': string;
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large: a chunked body's extensions over Node's limit. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  postLinks: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** @description One record, or an array of 1 to 1000 created all or none. */
    requestBody: {
      content: {
        /**
         * @example {
         *       "a_interface_id": "00000000-0000-4000-8000-000000000000",
         *       "b_interface_id": "00000000-0000-4000-8000-000000000000",
         *       "status": "up",
         *       "tags": []
         *     }
         */
        'application/json':
          | {
              /** Format: uuid */
              a_interface_id: string;
              /** Format: uuid */
              b_interface_id: string;
              type?: string | null;
              status?: 'up' | 'down';
              tags?: string[];
            }
          | {
              /** Format: uuid */
              a_interface_id: string;
              /** Format: uuid */
              b_interface_id: string;
              type?: string | null;
              status?: 'up' | 'down';
              tags?: string[];
            }[];
        'text/csv': string;
      };
    };
    responses: {
      /** @description Default Response */
      201: {
        headers: {
          /** @description The version of the record as stored (`"1234567"`; weak, `W/"…"`, when `fields` or `brief` chose the fields): send it in If-Match to change this version only. A create of several records (an array, a CSV file) sends none. */
          ETag?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json':
            | {
                /** Format: uuid */
                id: string;
                /** Format: uuid */
                a_interface_id: string;
                /** Format: uuid */
                b_interface_id: string;
                type: string | null;
                status: 'up' | 'down';
                tags: string[];
                /** Format: date-time */
                created_at: string;
                /** Format: date-time */
                updated_at: string;
              }
            | {
                /** Format: uuid */
                id: string;
                /** Format: uuid */
                a_interface_id: string;
                /** Format: uuid */
                b_interface_id: string;
                type: string | null;
                status: 'up' | 'down';
                tags: string[];
                /** Format: date-time */
                created_at: string;
                /** Format: date-time */
                updated_at: string;
              }[];
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Conflict: a unique value is taken, or the change would leave no active admin. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large (BODY_LIMIT). */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Unsupported media type: send a Content-Type the operation reads. */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  deleteLinks: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': string[];
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            status: 'success';
            message: string;
            count: number;
          };
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No such record (a batch: one of the ids names none). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Conflict: a unique value is taken, or the change would leave no active admin. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large (BODY_LIMIT). */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Unsupported media type: send a Content-Type the operation reads. */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  patchLinks: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** Format: uuid */
          id: string;
          /** Format: uuid */
          a_interface_id?: string;
          /** Format: uuid */
          b_interface_id?: string;
          type?: string | null;
          status?: 'up' | 'down';
          tags?: string[];
          /** @description The record's ETag as last read (`"123"`): the batch is refused with 412, and nothing changed, if the record has changed since. */
          etag?: string;
          /** @description Tags to add to those the record has (instead of `tags`). */
          add_tags?: string[];
          /** @description Tags to remove from those the record has (instead of `tags`). */
          remove_tags?: string[];
        }[];
        'text/csv': string;
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            status: 'success';
            message: string;
            count: number;
          };
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No such record (a batch: one of the ids names none). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Conflict: a unique value is taken, or the change would leave no active admin. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Precondition Failed: the record changed since the ETag sent was read; nothing was changed. Read it again (its new ETag) and retry. */
      412: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large (BODY_LIMIT). */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Unsupported media type: send a Content-Type the operation reads. */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getLinksById: {
    parameters: {
      query?: {
        /** @description Comma-separated fields to return (others are left out): id, created_at, updated_at, a_interface_id, b_interface_id, type, status, tags. */
        fields?: string;
        /** @description Return only the id and the record's name field. */
        brief?: boolean;
      };
      header?: {
        /** @description Reads: answer 304 without a body if the record's ETag is one of these. Writes: 412 and nothing changes if it is (`*`: the record exists). Evaluated after If-Match (RFC 9110 §13.2.2). Grammar (RFC 9110 §13.1): `*`, or a comma-separated list of at most 64 entity tags `"…"` or `W/"…"`; anything else is 400. */
        'if-none-match'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Every field, or only those chosen with `fields` or `brief`. */
      200: {
        headers: {
          /** @description The version of the record as stored (`"1234567"`; weak, `W/"…"`, when `fields` or `brief` chose the fields): send it in If-Match to change this version only. A create of several records (an array, a CSV file) sends none. */
          ETag?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** Format: uuid */
            id?: string;
            /** Format: uuid */
            a_interface_id?: string;
            /** Format: uuid */
            b_interface_id?: string;
            type?: string | null;
            status?: 'up' | 'down';
            tags?: string[];
            /** Format: date-time */
            created_at?: string;
            /** Format: date-time */
            updated_at?: string;
          };
        };
      };
      /** @description Not modified: the ETag sent is current. */
      304: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No such record (a batch: one of the ids names none). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large: a chunked body's extensions over Node's limit. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  putLinksById: {
    parameters: {
      query?: never;
      header?: {
        /** @description Write only if the record's ETag is one of these (`"123"`, a list, or `*`): else 412 and nothing changes. Grammar (RFC 9110 §13.1): `*`, or a comma-separated list of at most 64 entity tags `"…"` or `W/"…"`; anything else is 400. */
        'if-match'?: string;
        /** @description Reads: answer 304 without a body if the record's ETag is one of these. Writes: 412 and nothing changes if it is (`*`: the record exists). Evaluated after If-Match (RFC 9110 §13.2.2). Grammar (RFC 9110 §13.1): `*`, or a comma-separated list of at most 64 entity tags `"…"` or `W/"…"`; anything else is 400. */
        'if-none-match'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** Format: uuid */
          a_interface_id: string;
          /** Format: uuid */
          b_interface_id: string;
          type?: string | null;
          status?: 'up' | 'down';
          tags?: string[];
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          /** @description The version of the record as stored (`"1234567"`; weak, `W/"…"`, when `fields` or `brief` chose the fields): send it in If-Match to change this version only. A create of several records (an array, a CSV file) sends none. */
          ETag?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            a_interface_id: string;
            /** Format: uuid */
            b_interface_id: string;
            type: string | null;
            status: 'up' | 'down';
            tags: string[];
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
          };
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No such record (a batch: one of the ids names none). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Conflict: a unique value is taken, or the change would leave no active admin. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Precondition Failed: the record changed since the ETag sent was read; nothing was changed. Read it again (its new ETag) and retry. */
      412: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large (BODY_LIMIT). */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Unsupported media type: send a Content-Type the operation reads. */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  deleteLinksById: {
    parameters: {
      query?: never;
      header?: {
        /** @description Write only if the record's ETag is one of these (`"123"`, a list, or `*`): else 412 and nothing changes. Grammar (RFC 9110 §13.1): `*`, or a comma-separated list of at most 64 entity tags `"…"` or `W/"…"`; anything else is 400. */
        'if-match'?: string;
        /** @description Reads: answer 304 without a body if the record's ETag is one of these. Writes: 412 and nothing changes if it is (`*`: the record exists). Evaluated after If-Match (RFC 9110 §13.2.2). Grammar (RFC 9110 §13.1): `*`, or a comma-separated list of at most 64 entity tags `"…"` or `W/"…"`; anything else is 400. */
        'if-none-match'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No such record (a batch: one of the ids names none). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Conflict: a unique value is taken, or the change would leave no active admin. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Precondition Failed: the record changed since the ETag sent was read; nothing was changed. Read it again (its new ETag) and retry. */
      412: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large: a chunked body's extensions over Node's limit. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  patchLinksById: {
    parameters: {
      query?: never;
      header?: {
        /** @description Write only if the record's ETag is one of these (`"123"`, a list, or `*`): else 412 and nothing changes. Grammar (RFC 9110 §13.1): `*`, or a comma-separated list of at most 64 entity tags `"…"` or `W/"…"`; anything else is 400. */
        'if-match'?: string;
        /** @description Reads: answer 304 without a body if the record's ETag is one of these. Writes: 412 and nothing changes if it is (`*`: the record exists). Evaluated after If-Match (RFC 9110 §13.2.2). Grammar (RFC 9110 §13.1): `*`, or a comma-separated list of at most 64 entity tags `"…"` or `W/"…"`; anything else is 400. */
        'if-none-match'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** Format: uuid */
          a_interface_id?: string;
          /** Format: uuid */
          b_interface_id?: string;
          type?: string | null;
          status?: 'up' | 'down';
          tags?: string[];
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          /** @description The version of the record as stored (`"1234567"`; weak, `W/"…"`, when `fields` or `brief` chose the fields): send it in If-Match to change this version only. A create of several records (an array, a CSV file) sends none. */
          ETag?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            a_interface_id: string;
            /** Format: uuid */
            b_interface_id: string;
            type: string | null;
            status: 'up' | 'down';
            tags: string[];
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
          };
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No such record (a batch: one of the ids names none). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Conflict: a unique value is taken, or the change would leave no active admin. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Precondition Failed: the record changed since the ETag sent was read; nothing was changed. Read it again (its new ETag) and retry. */
      412: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large (BODY_LIMIT). */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Unsupported media type: send a Content-Type the operation reads. */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getLinksByIdHistory: {
    parameters: {
      query?: {
        /** @description Page number (default 1). */
        page?: number;
        /** @description Keyset paging: a previous page's `meta.next_cursor`. Not with `page`; valid only for the same resource, sort and filters. */
        cursor?: string;
        /** @description Comma-separated fields to return (others are left out): id, created_at, user_id, username, action, resource_type, resource_id, changes, prechange, postchange, request_id, client_ip. */
        fields?: string;
        /** @description Return only the id and the record's name field. */
        brief?: boolean;
        /** @description `csv`: every matching row as text/csv (header row of the selected fields; cells starting with = + - @ are prefixed with '; tags joined by commas). Also `Accept: text/csv`. Not with page or cursor. */
        format?: 'json' | 'csv';
        /** @description Items per page, 1 to 100 (default 10). */
        limit?: number;
        /** @description Sort keys applied in the order given (repeat the parameter for more than one); by id last, so the order is total. */
        sortby?: string[];
        user_id?: string;
        action?:
          | 'create'
          | 'replace'
          | 'update'
          | 'delete'
          | 'login'
          | 'login_failed'
          | 'logout'
          | 'password_reset';
        request_id?: string;
        from?: string;
        to?: string;
        /** @description Lookup filters, each its own query parameter `<field>__<lookup>=<value>` (`?hostname__ic=core&vlan_id__gte=100`; the grammar is in the API description). Per field: `user_id`: n in isnull; `action`: n in ic nic isw iew ie isnull; `request_id`: n in lt lte gt gte ic nic isw iew ie isnull; `id`: in. */
        lookups?: {
          /** Format: uuid */
          user_id__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          user_id__in?: string;
          user_id__isnull?: boolean;
          action__n?:
            | 'create'
            | 'replace'
            | 'update'
            | 'delete'
            | 'login'
            | 'login_failed'
            | 'logout'
            | 'password_reset';
          /** @description Comma-separated values (at most 100), each typed like the field. */
          action__in?: string;
          action__ic?: string;
          action__nic?: string;
          action__isw?: string;
          action__iew?: string;
          action__ie?: string;
          action__isnull?: boolean;
          request_id__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          request_id__in?: string;
          request_id__lt?: string;
          request_id__lte?: string;
          request_id__gt?: string;
          request_id__gte?: string;
          request_id__ic?: string;
          request_id__nic?: string;
          request_id__isw?: string;
          request_id__iew?: string;
          request_id__ie?: string;
          request_id__isnull?: boolean;
          /** @description Records by id: comma-separated ids (at most 100). */
          id__in?: string;
        };
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            meta: {
              current_page: number | null;
              limit: number;
              total_pages: number;
              total_count: number;
              next_cursor: string | null;
            };
            data: {
              /** Format: uuid */
              id?: string;
              user_id?: string | null;
              username?: string | null;
              action?:
                | (
                    | 'create'
                    | 'replace'
                    | 'update'
                    | 'delete'
                    | 'login'
                    | 'login_failed'
                    | 'logout'
                    | 'password_reset'
                  )
                | null;
              resource_type?: string | null;
              resource_id?: string | null;
              changes?: {
                [key: string]: unknown;
              } | null;
              prechange?: {
                [key: string]: unknown;
              } | null;
              postchange?: {
                [key: string]: unknown;
              } | null;
              request_id?: string | null;
              client_ip?: string | null;
              /** Format: date-time */
              created_at?: string;
            }[];
          };
          'text/csv': string;
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No such record (a batch: one of the ids names none). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large: a chunked body's extensions over Node's limit. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getWebhooks: {
    parameters: {
      query?: {
        /** @description Page number (default 1). */
        page?: number;
        /** @description Keyset paging: a previous page's `meta.next_cursor`. Not with `page`; valid only for the same resource, sort and filters. */
        cursor?: string;
        /** @description Comma-separated fields to return (others are left out): id, created_at, updated_at, name, url, events, resources, filter, headers, enabled. */
        fields?: string;
        /** @description Return only the id and the record's name field. */
        brief?: boolean;
        /** @description `csv`: every matching row as text/csv (header row of the selected fields; cells starting with = + - @ are prefixed with '; tags joined by commas). Also `Accept: text/csv`. Not with page or cursor. */
        format?: 'json' | 'csv';
        /** @description Items per page, 1 to 100 (default 10). */
        limit?: number;
        /** @description Sort keys applied in the order given (repeat the parameter for more than one); by id last, so the order is total. */
        sortby?: string[];
        name?: string;
        enabled?: boolean;
        /** @description Case-insensitive search in name, url. */
        q?: string;
        /** @description Lookup filters, each its own query parameter `<field>__<lookup>=<value>` (`?hostname__ic=core&vlan_id__gte=100`; the grammar is in the API description). Per field: `name`: n in lt lte gt gte ic nic isw iew ie isnull; `enabled`: n isnull; `id`: in. */
        lookups?: {
          name__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          name__in?: string;
          name__lt?: string;
          name__lte?: string;
          name__gt?: string;
          name__gte?: string;
          name__ic?: string;
          name__nic?: string;
          name__isw?: string;
          name__iew?: string;
          name__ie?: string;
          name__isnull?: boolean;
          enabled__n?: boolean;
          enabled__isnull?: boolean;
          /** @description Records by id: comma-separated ids (at most 100). */
          id__in?: string;
        };
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            meta: {
              current_page: number | null;
              limit: number;
              total_pages: number;
              total_count: number;
              next_cursor: string | null;
            };
            data: {
              /** Format: uuid */
              id?: string;
              name?: string;
              /**
               * Format: uri
               * @example https://receiver.example/inventory-hook
               */
              url?: string;
              /** @description Which changes are sent (default: all three). */
              events?: ('created' | 'updated' | 'deleted')[];
              /** @description Which resources are sent; every one when empty (default). */
              resources?: ('locations' | 'devices' | 'interfaces' | 'vlans' | 'links')[];
              filter?: {
                [key: string]:
                  | (string | number | boolean | null)
                  | (string | number | boolean | null)[];
              } | null;
              /** @description Extra request headers (at most 20); hop-by-hop, Host, Content-Type, Content-Length, Expect, Content-Encoding and the signature headers are refused. */
              headers?: {
                [key: string]: string;
              };
              enabled?: boolean;
              /** Format: date-time */
              created_at?: string;
              /** Format: date-time */
              updated_at?: string;
            }[];
          };
          'text/csv': string;
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large: a chunked body's extensions over Node's limit. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  postWebhooks: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** @description One record, or an array of 1 to 1000 created all or none. */
    requestBody: {
      content: {
        /**
         * @example {
         *       "name": "example-name",
         *       "url": "https://receiver.example/inventory-hook",
         *       "events": [
         *         "created",
         *         "updated",
         *         "deleted"
         *       ],
         *       "resources": [],
         *       "headers": {},
         *       "enabled": true
         *     }
         */
        'application/json':
          | {
              name: string;
              /**
               * Format: uri
               * @example https://receiver.example/inventory-hook
               */
              url: string;
              /** @description Which changes are sent (default: all three). */
              events?: ('created' | 'updated' | 'deleted')[];
              /** @description Which resources are sent; every one when empty (default). */
              resources?: ('locations' | 'devices' | 'interfaces' | 'vlans' | 'links')[];
              filter?: {
                [key: string]:
                  | (string | number | boolean | null)
                  | (string | number | boolean | null)[];
              } | null;
              /** @description Extra request headers (at most 20); hop-by-hop, Host, Content-Type, Content-Length, Expect, Content-Encoding and the signature headers are refused. */
              headers?: {
                [key: string]: string;
              };
              enabled?: boolean;
              secret?: string | null;
            }
          | {
              name: string;
              /**
               * Format: uri
               * @example https://receiver.example/inventory-hook
               */
              url: string;
              /** @description Which changes are sent (default: all three). */
              events?: ('created' | 'updated' | 'deleted')[];
              /** @description Which resources are sent; every one when empty (default). */
              resources?: ('locations' | 'devices' | 'interfaces' | 'vlans' | 'links')[];
              filter?: {
                [key: string]:
                  | (string | number | boolean | null)
                  | (string | number | boolean | null)[];
              } | null;
              /** @description Extra request headers (at most 20); hop-by-hop, Host, Content-Type, Content-Length, Expect, Content-Encoding and the signature headers are refused. */
              headers?: {
                [key: string]: string;
              };
              enabled?: boolean;
              secret?: string | null;
            }[];
        'text/csv': string;
      };
    };
    responses: {
      /** @description Default Response */
      201: {
        headers: {
          /** @description The version of the record as stored (`"1234567"`; weak, `W/"…"`, when `fields` or `brief` chose the fields): send it in If-Match to change this version only. A create of several records (an array, a CSV file) sends none. */
          ETag?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json':
            | {
                /** Format: uuid */
                id: string;
                name: string;
                /**
                 * Format: uri
                 * @example https://receiver.example/inventory-hook
                 */
                url: string;
                /** @description Which changes are sent (default: all three). */
                events: ('created' | 'updated' | 'deleted')[];
                /** @description Which resources are sent; every one when empty (default). */
                resources: ('locations' | 'devices' | 'interfaces' | 'vlans' | 'links')[];
                filter: {
                  [key: string]:
                    | (string | number | boolean | null)
                    | (string | number | boolean | null)[];
                } | null;
                /** @description Extra request headers (at most 20); hop-by-hop, Host, Content-Type, Content-Length, Expect, Content-Encoding and the signature headers are refused. */
                headers: {
                  [key: string]: string;
                };
                enabled: boolean;
                /** Format: date-time */
                created_at: string;
                /** Format: date-time */
                updated_at: string;
              }
            | {
                /** Format: uuid */
                id: string;
                name: string;
                /**
                 * Format: uri
                 * @example https://receiver.example/inventory-hook
                 */
                url: string;
                /** @description Which changes are sent (default: all three). */
                events: ('created' | 'updated' | 'deleted')[];
                /** @description Which resources are sent; every one when empty (default). */
                resources: ('locations' | 'devices' | 'interfaces' | 'vlans' | 'links')[];
                filter: {
                  [key: string]:
                    | (string | number | boolean | null)
                    | (string | number | boolean | null)[];
                } | null;
                /** @description Extra request headers (at most 20); hop-by-hop, Host, Content-Type, Content-Length, Expect, Content-Encoding and the signature headers are refused. */
                headers: {
                  [key: string]: string;
                };
                enabled: boolean;
                /** Format: date-time */
                created_at: string;
                /** Format: date-time */
                updated_at: string;
              }[];
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Conflict: a unique value is taken, or the change would leave no active admin. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large (BODY_LIMIT). */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Unsupported media type: send a Content-Type the operation reads. */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  deleteWebhooks: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': string[];
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            status: 'success';
            message: string;
            count: number;
          };
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No such record (a batch: one of the ids names none). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Conflict: a unique value is taken, or the change would leave no active admin. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large (BODY_LIMIT). */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Unsupported media type: send a Content-Type the operation reads. */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  patchWebhooks: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** Format: uuid */
          id: string;
          name?: string;
          /**
           * Format: uri
           * @example https://receiver.example/inventory-hook
           */
          url?: string;
          /** @description Which changes are sent (default: all three). */
          events?: ('created' | 'updated' | 'deleted')[];
          /** @description Which resources are sent; every one when empty (default). */
          resources?: ('locations' | 'devices' | 'interfaces' | 'vlans' | 'links')[];
          filter?: {
            [key: string]:
              | (string | number | boolean | null)
              | (string | number | boolean | null)[];
          } | null;
          /** @description Extra request headers (at most 20); hop-by-hop, Host, Content-Type, Content-Length, Expect, Content-Encoding and the signature headers are refused. */
          headers?: {
            [key: string]: string;
          };
          enabled?: boolean;
          secret?: string | null;
          /** @description The record's ETag as last read (`"123"`): the batch is refused with 412, and nothing changed, if the record has changed since. */
          etag?: string;
        }[];
        'text/csv': string;
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            status: 'success';
            message: string;
            count: number;
          };
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No such record (a batch: one of the ids names none). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Conflict: a unique value is taken, or the change would leave no active admin. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Precondition Failed: the record changed since the ETag sent was read; nothing was changed. Read it again (its new ETag) and retry. */
      412: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large (BODY_LIMIT). */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Unsupported media type: send a Content-Type the operation reads. */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getWebhooksById: {
    parameters: {
      query?: {
        /** @description Comma-separated fields to return (others are left out): id, created_at, updated_at, name, url, events, resources, filter, headers, enabled. */
        fields?: string;
        /** @description Return only the id and the record's name field. */
        brief?: boolean;
      };
      header?: {
        /** @description Reads: answer 304 without a body if the record's ETag is one of these. Writes: 412 and nothing changes if it is (`*`: the record exists). Evaluated after If-Match (RFC 9110 §13.2.2). Grammar (RFC 9110 §13.1): `*`, or a comma-separated list of at most 64 entity tags `"…"` or `W/"…"`; anything else is 400. */
        'if-none-match'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Every field, or only those chosen with `fields` or `brief`. */
      200: {
        headers: {
          /** @description The version of the record as stored (`"1234567"`; weak, `W/"…"`, when `fields` or `brief` chose the fields): send it in If-Match to change this version only. A create of several records (an array, a CSV file) sends none. */
          ETag?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** Format: uuid */
            id?: string;
            name?: string;
            /**
             * Format: uri
             * @example https://receiver.example/inventory-hook
             */
            url?: string;
            /** @description Which changes are sent (default: all three). */
            events?: ('created' | 'updated' | 'deleted')[];
            /** @description Which resources are sent; every one when empty (default). */
            resources?: ('locations' | 'devices' | 'interfaces' | 'vlans' | 'links')[];
            filter?: {
              [key: string]:
                | (string | number | boolean | null)
                | (string | number | boolean | null)[];
            } | null;
            /** @description Extra request headers (at most 20); hop-by-hop, Host, Content-Type, Content-Length, Expect, Content-Encoding and the signature headers are refused. */
            headers?: {
              [key: string]: string;
            };
            enabled?: boolean;
            /** Format: date-time */
            created_at?: string;
            /** Format: date-time */
            updated_at?: string;
          };
        };
      };
      /** @description Not modified: the ETag sent is current. */
      304: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No such record (a batch: one of the ids names none). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large: a chunked body's extensions over Node's limit. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  putWebhooksById: {
    parameters: {
      query?: never;
      header?: {
        /** @description Write only if the record's ETag is one of these (`"123"`, a list, or `*`): else 412 and nothing changes. Grammar (RFC 9110 §13.1): `*`, or a comma-separated list of at most 64 entity tags `"…"` or `W/"…"`; anything else is 400. */
        'if-match'?: string;
        /** @description Reads: answer 304 without a body if the record's ETag is one of these. Writes: 412 and nothing changes if it is (`*`: the record exists). Evaluated after If-Match (RFC 9110 §13.2.2). Grammar (RFC 9110 §13.1): `*`, or a comma-separated list of at most 64 entity tags `"…"` or `W/"…"`; anything else is 400. */
        'if-none-match'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          name: string;
          /**
           * Format: uri
           * @example https://receiver.example/inventory-hook
           */
          url: string;
          /** @description Which changes are sent (default: all three). */
          events?: ('created' | 'updated' | 'deleted')[];
          /** @description Which resources are sent; every one when empty (default). */
          resources?: ('locations' | 'devices' | 'interfaces' | 'vlans' | 'links')[];
          filter?: {
            [key: string]:
              | (string | number | boolean | null)
              | (string | number | boolean | null)[];
          } | null;
          /** @description Extra request headers (at most 20); hop-by-hop, Host, Content-Type, Content-Length, Expect, Content-Encoding and the signature headers are refused. */
          headers?: {
            [key: string]: string;
          };
          enabled?: boolean;
          secret?: string | null;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          /** @description The version of the record as stored (`"1234567"`; weak, `W/"…"`, when `fields` or `brief` chose the fields): send it in If-Match to change this version only. A create of several records (an array, a CSV file) sends none. */
          ETag?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** Format: uuid */
            id: string;
            name: string;
            /**
             * Format: uri
             * @example https://receiver.example/inventory-hook
             */
            url: string;
            /** @description Which changes are sent (default: all three). */
            events: ('created' | 'updated' | 'deleted')[];
            /** @description Which resources are sent; every one when empty (default). */
            resources: ('locations' | 'devices' | 'interfaces' | 'vlans' | 'links')[];
            filter: {
              [key: string]:
                | (string | number | boolean | null)
                | (string | number | boolean | null)[];
            } | null;
            /** @description Extra request headers (at most 20); hop-by-hop, Host, Content-Type, Content-Length, Expect, Content-Encoding and the signature headers are refused. */
            headers: {
              [key: string]: string;
            };
            enabled: boolean;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
          };
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No such record (a batch: one of the ids names none). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Conflict: a unique value is taken, or the change would leave no active admin. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Precondition Failed: the record changed since the ETag sent was read; nothing was changed. Read it again (its new ETag) and retry. */
      412: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large (BODY_LIMIT). */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Unsupported media type: send a Content-Type the operation reads. */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  deleteWebhooksById: {
    parameters: {
      query?: never;
      header?: {
        /** @description Write only if the record's ETag is one of these (`"123"`, a list, or `*`): else 412 and nothing changes. Grammar (RFC 9110 §13.1): `*`, or a comma-separated list of at most 64 entity tags `"…"` or `W/"…"`; anything else is 400. */
        'if-match'?: string;
        /** @description Reads: answer 304 without a body if the record's ETag is one of these. Writes: 412 and nothing changes if it is (`*`: the record exists). Evaluated after If-Match (RFC 9110 §13.2.2). Grammar (RFC 9110 §13.1): `*`, or a comma-separated list of at most 64 entity tags `"…"` or `W/"…"`; anything else is 400. */
        'if-none-match'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No such record (a batch: one of the ids names none). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Conflict: a unique value is taken, or the change would leave no active admin. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Precondition Failed: the record changed since the ETag sent was read; nothing was changed. Read it again (its new ETag) and retry. */
      412: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large: a chunked body's extensions over Node's limit. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  patchWebhooksById: {
    parameters: {
      query?: never;
      header?: {
        /** @description Write only if the record's ETag is one of these (`"123"`, a list, or `*`): else 412 and nothing changes. Grammar (RFC 9110 §13.1): `*`, or a comma-separated list of at most 64 entity tags `"…"` or `W/"…"`; anything else is 400. */
        'if-match'?: string;
        /** @description Reads: answer 304 without a body if the record's ETag is one of these. Writes: 412 and nothing changes if it is (`*`: the record exists). Evaluated after If-Match (RFC 9110 §13.2.2). Grammar (RFC 9110 §13.1): `*`, or a comma-separated list of at most 64 entity tags `"…"` or `W/"…"`; anything else is 400. */
        'if-none-match'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          name?: string;
          /**
           * Format: uri
           * @example https://receiver.example/inventory-hook
           */
          url?: string;
          /** @description Which changes are sent (default: all three). */
          events?: ('created' | 'updated' | 'deleted')[];
          /** @description Which resources are sent; every one when empty (default). */
          resources?: ('locations' | 'devices' | 'interfaces' | 'vlans' | 'links')[];
          filter?: {
            [key: string]:
              | (string | number | boolean | null)
              | (string | number | boolean | null)[];
          } | null;
          /** @description Extra request headers (at most 20); hop-by-hop, Host, Content-Type, Content-Length, Expect, Content-Encoding and the signature headers are refused. */
          headers?: {
            [key: string]: string;
          };
          enabled?: boolean;
          secret?: string | null;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          /** @description The version of the record as stored (`"1234567"`; weak, `W/"…"`, when `fields` or `brief` chose the fields): send it in If-Match to change this version only. A create of several records (an array, a CSV file) sends none. */
          ETag?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** Format: uuid */
            id: string;
            name: string;
            /**
             * Format: uri
             * @example https://receiver.example/inventory-hook
             */
            url: string;
            /** @description Which changes are sent (default: all three). */
            events: ('created' | 'updated' | 'deleted')[];
            /** @description Which resources are sent; every one when empty (default). */
            resources: ('locations' | 'devices' | 'interfaces' | 'vlans' | 'links')[];
            filter: {
              [key: string]:
                | (string | number | boolean | null)
                | (string | number | boolean | null)[];
            } | null;
            /** @description Extra request headers (at most 20); hop-by-hop, Host, Content-Type, Content-Length, Expect, Content-Encoding and the signature headers are refused. */
            headers: {
              [key: string]: string;
            };
            enabled: boolean;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
          };
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No such record (a batch: one of the ids names none). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Conflict: a unique value is taken, or the change would leave no active admin. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Precondition Failed: the record changed since the ETag sent was read; nothing was changed. Read it again (its new ETag) and retry. */
      412: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large (BODY_LIMIT). */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Unsupported media type: send a Content-Type the operation reads. */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getWebhooksByIdHistory: {
    parameters: {
      query?: {
        /** @description Page number (default 1). */
        page?: number;
        /** @description Keyset paging: a previous page's `meta.next_cursor`. Not with `page`; valid only for the same resource, sort and filters. */
        cursor?: string;
        /** @description Comma-separated fields to return (others are left out): id, created_at, user_id, username, action, resource_type, resource_id, changes, prechange, postchange, request_id, client_ip. */
        fields?: string;
        /** @description Return only the id and the record's name field. */
        brief?: boolean;
        /** @description `csv`: every matching row as text/csv (header row of the selected fields; cells starting with = + - @ are prefixed with '; tags joined by commas). Also `Accept: text/csv`. Not with page or cursor. */
        format?: 'json' | 'csv';
        /** @description Items per page, 1 to 100 (default 10). */
        limit?: number;
        /** @description Sort keys applied in the order given (repeat the parameter for more than one); by id last, so the order is total. */
        sortby?: string[];
        user_id?: string;
        action?:
          | 'create'
          | 'replace'
          | 'update'
          | 'delete'
          | 'login'
          | 'login_failed'
          | 'logout'
          | 'password_reset';
        request_id?: string;
        from?: string;
        to?: string;
        /** @description Lookup filters, each its own query parameter `<field>__<lookup>=<value>` (`?hostname__ic=core&vlan_id__gte=100`; the grammar is in the API description). Per field: `user_id`: n in isnull; `action`: n in ic nic isw iew ie isnull; `request_id`: n in lt lte gt gte ic nic isw iew ie isnull; `id`: in. */
        lookups?: {
          /** Format: uuid */
          user_id__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          user_id__in?: string;
          user_id__isnull?: boolean;
          action__n?:
            | 'create'
            | 'replace'
            | 'update'
            | 'delete'
            | 'login'
            | 'login_failed'
            | 'logout'
            | 'password_reset';
          /** @description Comma-separated values (at most 100), each typed like the field. */
          action__in?: string;
          action__ic?: string;
          action__nic?: string;
          action__isw?: string;
          action__iew?: string;
          action__ie?: string;
          action__isnull?: boolean;
          request_id__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          request_id__in?: string;
          request_id__lt?: string;
          request_id__lte?: string;
          request_id__gt?: string;
          request_id__gte?: string;
          request_id__ic?: string;
          request_id__nic?: string;
          request_id__isw?: string;
          request_id__iew?: string;
          request_id__ie?: string;
          request_id__isnull?: boolean;
          /** @description Records by id: comma-separated ids (at most 100). */
          id__in?: string;
        };
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            meta: {
              current_page: number | null;
              limit: number;
              total_pages: number;
              total_count: number;
              next_cursor: string | null;
            };
            data: {
              /** Format: uuid */
              id?: string;
              user_id?: string | null;
              username?: string | null;
              action?:
                | (
                    | 'create'
                    | 'replace'
                    | 'update'
                    | 'delete'
                    | 'login'
                    | 'login_failed'
                    | 'logout'
                    | 'password_reset'
                  )
                | null;
              resource_type?: string | null;
              resource_id?: string | null;
              changes?: {
                [key: string]: unknown;
              } | null;
              prechange?: {
                [key: string]: unknown;
              } | null;
              postchange?: {
                [key: string]: unknown;
              } | null;
              request_id?: string | null;
              client_ip?: string | null;
              /** Format: date-time */
              created_at?: string;
            }[];
          };
          'text/csv': string;
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No such record (a batch: one of the ids names none). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large: a chunked body's extensions over Node's limit. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getTags: {
    parameters: {
      query?: {
        page?: number;
        /** @description Items per page, 1 to 100 (default 10). */
        limit?: number;
        /** @description `name:asc|desc` or `count:asc|desc` (default `name:asc`). */
        sortby?: string[];
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            meta: {
              current_page: number;
              limit: number;
              total_pages: number;
              total_count: number;
            };
            data: {
              name: string;
              count: number;
              locations: number;
              devices: number;
              interfaces: number;
              vlans: number;
              links: number;
            }[];
          };
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large: a chunked body's extensions over Node's limit. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getWebhooksByIdDeliveries: {
    parameters: {
      query?: {
        limit?: number;
        /** @description An attempt id: older ones. */
        before?: string;
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            meta: {
              limit: number;
              /** @description Pass as `before` for the next (older) page; null on the last. */
              next_before: string | null;
            };
            data: {
              /** @description The attempt, for `before` paging. */
              id: string;
              /**
               * Format: uuid
               * @description Sent as `webhook-id`.
               */
              delivery_id: string;
              event: string;
              resource: string;
              resource_id: string;
              /** @description 1 for the first attempt of the delivery. */
              attempt: number;
              /** Format: date-time */
              attempted_at: string;
              status_code: number | null;
              duration_ms: number;
              error: string | null;
              /** @description The first 512 bytes of the answer, control characters replaced. */
              response_excerpt: string | null;
              delivery_state: 'pending' | 'delivered' | 'failed';
            }[];
          };
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No such record (a batch: one of the ids names none). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large: a chunked body's extensions over Node's limit. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  postWebhooksByIdDeliveriesByDeliveryIdRedeliver: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
        delivery_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            status: 'success';
            message: string;
          };
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No such record (a batch: one of the ids names none). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Conflict: a unique value is taken, or the change would leave no active admin. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large: a chunked body's extensions over Node's limit. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getEvents: {
    parameters: {
      query?: {
        /** @description Page number (default 1). */
        page?: number;
        /** @description Keyset paging: a previous page's `meta.next_cursor`. Not with `page`; valid only for the same resource, sort and filters. */
        cursor?: string;
        /** @description Comma-separated fields to return (others are left out): id, created_at, severity, type, message, device_id. */
        fields?: string;
        /** @description Return only the id and the record's name field. */
        brief?: boolean;
        /** @description `csv`: every matching row as text/csv (header row of the selected fields; cells starting with = + - @ are prefixed with '; tags joined by commas). Also `Accept: text/csv`. Not with page or cursor. */
        format?: 'json' | 'csv';
        /** @description Items per page, 1 to 100 (default 10). */
        limit?: number;
        /** @description Sort keys applied in the order given (repeat the parameter for more than one); by id last, so the order is total. */
        sortby?: string[];
        severity?: 'critical' | 'major' | 'minor' | 'warning' | 'info';
        type?: string;
        device_id?: string;
        from?: string;
        to?: string;
        /** @description Lookup filters, each its own query parameter `<field>__<lookup>=<value>` (`?hostname__ic=core&vlan_id__gte=100`; the grammar is in the API description). Per field: `severity`: n in ic nic isw iew ie isnull; `type`: n in lt lte gt gte ic nic isw iew ie isnull; `device_id`: n in isnull; `id`: in. */
        lookups?: {
          severity__n?: 'critical' | 'major' | 'minor' | 'warning' | 'info';
          /** @description Comma-separated values (at most 100), each typed like the field. */
          severity__in?: string;
          severity__ic?: string;
          severity__nic?: string;
          severity__isw?: string;
          severity__iew?: string;
          severity__ie?: string;
          severity__isnull?: boolean;
          type__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          type__in?: string;
          type__lt?: string;
          type__lte?: string;
          type__gt?: string;
          type__gte?: string;
          type__ic?: string;
          type__nic?: string;
          type__isw?: string;
          type__iew?: string;
          type__ie?: string;
          type__isnull?: boolean;
          /** Format: uuid */
          device_id__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          device_id__in?: string;
          device_id__isnull?: boolean;
          /** @description Records by id: comma-separated ids (at most 100). */
          id__in?: string;
        };
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            meta: {
              current_page: number | null;
              limit: number;
              total_pages: number;
              total_count: number;
              next_cursor: string | null;
            };
            data: {
              /** Format: uuid */
              id?: string;
              severity?: 'critical' | 'major' | 'minor' | 'warning' | 'info';
              type?: string;
              message?: string;
              device_id?: string | null;
              /** Format: date-time */
              created_at?: string;
            }[];
          };
          'text/csv': string;
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large: a chunked body's extensions over Node's limit. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  postEvents: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "severity": "critical",
         *       "type": "example-type",
         *       "message": "example-message"
         *     }
         */
        'application/json': {
          severity: 'critical' | 'major' | 'minor' | 'warning' | 'info';
          type: string;
          message: string;
          device_id?: string | null;
        };
      };
    };
    responses: {
      /** @description Default Response */
      201: {
        headers: {
          /** @description The version of the record as stored (`"1234567"`; weak, `W/"…"`, when `fields` or `brief` chose the fields): send it in If-Match to change this version only. A create of several records (an array, a CSV file) sends none. */
          ETag?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** Format: uuid */
            id: string;
            severity: 'critical' | 'major' | 'minor' | 'warning' | 'info';
            type: string;
            message: string;
            device_id: string | null;
            /** Format: date-time */
            created_at: string;
          };
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Conflict: a unique value is taken, or the change would leave no active admin. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large (BODY_LIMIT). */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Unsupported media type: send a Content-Type the operation reads. */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getEventsById: {
    parameters: {
      query?: {
        /** @description Comma-separated fields to return (others are left out): id, created_at, severity, type, message, device_id. */
        fields?: string;
        /** @description Return only the id and the record's name field. */
        brief?: boolean;
      };
      header?: {
        /** @description Reads: answer 304 without a body if the record's ETag is one of these. Writes: 412 and nothing changes if it is (`*`: the record exists). Evaluated after If-Match (RFC 9110 §13.2.2). Grammar (RFC 9110 §13.1): `*`, or a comma-separated list of at most 64 entity tags `"…"` or `W/"…"`; anything else is 400. */
        'if-none-match'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Every field, or only those chosen with `fields` or `brief`. */
      200: {
        headers: {
          /** @description The version of the record as stored (`"1234567"`; weak, `W/"…"`, when `fields` or `brief` chose the fields): send it in If-Match to change this version only. A create of several records (an array, a CSV file) sends none. */
          ETag?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** Format: uuid */
            id?: string;
            severity?: 'critical' | 'major' | 'minor' | 'warning' | 'info';
            type?: string;
            message?: string;
            device_id?: string | null;
            /** Format: date-time */
            created_at?: string;
          };
        };
      };
      /** @description Not modified: the ETag sent is current. */
      304: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No such record (a batch: one of the ids names none). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large: a chunked body's extensions over Node's limit. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getMetrics: {
    parameters: {
      query?: {
        page?: number;
        /** @description Items per page, 1 to 100 (default 10). */
        limit?: number;
        /** @description `<field>:asc` or `<field>:desc`, where <field> is one of cpu, memory, temperature, uptime_seconds, ts */
        sort?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            meta: {
              current_page: number;
              limit: number;
              total_pages: number;
              total_count: number;
            };
            data: {
              /** Format: uuid */
              device_id: string;
              cpu: number | null;
              memory: number | null;
              temperature: number | null;
              uptime_seconds: number | null;
              /** Format: date-time */
              ts: string;
            }[];
          };
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large: a chunked body's extensions over Node's limit. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  postMetrics: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json':
          | {
              /** Format: uuid */
              device_id: string;
              cpu?: number | null;
              memory?: number | null;
              temperature?: number | null;
              uptime_seconds?: number | null;
              /** Format: date-time */
              ts?: string;
            }
          | {
              /** Format: uuid */
              device_id: string;
              cpu?: number | null;
              memory?: number | null;
              temperature?: number | null;
              uptime_seconds?: number | null;
              /** Format: date-time */
              ts?: string;
            }[];
      };
    };
    responses: {
      /** @description Default Response */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            status: 'success';
            message: string;
            count: number;
          };
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Conflict: a unique value is taken, or the change would leave no active admin. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large (BODY_LIMIT). */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Unsupported media type: send a Content-Type the operation reads. */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getMetricsDeviceById: {
    parameters: {
      query?: {
        page?: number;
        /** @description Items per page, 1 to 100 (default 10). */
        limit?: number;
        from?: string;
        to?: string;
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json':
            | {
                /** Format: uuid */
                device_id: string;
                cpu: number | null;
                memory: number | null;
                temperature: number | null;
                uptime_seconds: number | null;
                /** Format: date-time */
                ts: string;
              }
            | {
                meta: {
                  current_page: number;
                  limit: number;
                  total_pages: number;
                  total_count: number;
                };
                data: {
                  /** Format: uuid */
                  device_id: string;
                  cpu: number | null;
                  memory: number | null;
                  temperature: number | null;
                  uptime_seconds: number | null;
                  /** Format: date-time */
                  ts: string;
                }[];
              };
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No such record (a batch: one of the ids names none). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large: a chunked body's extensions over Node's limit. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getAuditLogs: {
    parameters: {
      query?: {
        /** @description Page number (default 1). */
        page?: number;
        /** @description Keyset paging: a previous page's `meta.next_cursor`. Not with `page`; valid only for the same resource, sort and filters. */
        cursor?: string;
        /** @description Comma-separated fields to return (others are left out): id, created_at, user_id, username, action, resource_type, resource_id, changes, prechange, postchange, request_id, client_ip. */
        fields?: string;
        /** @description Return only the id and the record's name field. */
        brief?: boolean;
        /** @description `csv`: every matching row as text/csv (header row of the selected fields; cells starting with = + - @ are prefixed with '; tags joined by commas). Also `Accept: text/csv`. Not with page or cursor. */
        format?: 'json' | 'csv';
        /** @description Items per page, 1 to 100 (default 10). */
        limit?: number;
        /** @description Sort keys applied in the order given (repeat the parameter for more than one); by id last, so the order is total. */
        sortby?: string[];
        user_id?: string;
        action?:
          | 'create'
          | 'replace'
          | 'update'
          | 'delete'
          | 'login'
          | 'login_failed'
          | 'logout'
          | 'password_reset';
        resource_type?: string;
        resource_id?: string;
        request_id?: string;
        from?: string;
        to?: string;
        /** @description Lookup filters, each its own query parameter `<field>__<lookup>=<value>` (`?hostname__ic=core&vlan_id__gte=100`; the grammar is in the API description). Per field: `user_id`: n in isnull; `action`: n in ic nic isw iew ie isnull; `resource_type`: n in lt lte gt gte ic nic isw iew ie isnull; `resource_id`: n in lt lte gt gte ic nic isw iew ie isnull; `request_id`: n in lt lte gt gte ic nic isw iew ie isnull; `id`: in. */
        lookups?: {
          /** Format: uuid */
          user_id__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          user_id__in?: string;
          user_id__isnull?: boolean;
          action__n?:
            | 'create'
            | 'replace'
            | 'update'
            | 'delete'
            | 'login'
            | 'login_failed'
            | 'logout'
            | 'password_reset';
          /** @description Comma-separated values (at most 100), each typed like the field. */
          action__in?: string;
          action__ic?: string;
          action__nic?: string;
          action__isw?: string;
          action__iew?: string;
          action__ie?: string;
          action__isnull?: boolean;
          resource_type__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          resource_type__in?: string;
          resource_type__lt?: string;
          resource_type__lte?: string;
          resource_type__gt?: string;
          resource_type__gte?: string;
          resource_type__ic?: string;
          resource_type__nic?: string;
          resource_type__isw?: string;
          resource_type__iew?: string;
          resource_type__ie?: string;
          resource_type__isnull?: boolean;
          resource_id__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          resource_id__in?: string;
          resource_id__lt?: string;
          resource_id__lte?: string;
          resource_id__gt?: string;
          resource_id__gte?: string;
          resource_id__ic?: string;
          resource_id__nic?: string;
          resource_id__isw?: string;
          resource_id__iew?: string;
          resource_id__ie?: string;
          resource_id__isnull?: boolean;
          request_id__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          request_id__in?: string;
          request_id__lt?: string;
          request_id__lte?: string;
          request_id__gt?: string;
          request_id__gte?: string;
          request_id__ic?: string;
          request_id__nic?: string;
          request_id__isw?: string;
          request_id__iew?: string;
          request_id__ie?: string;
          request_id__isnull?: boolean;
          /** @description Records by id: comma-separated ids (at most 100). */
          id__in?: string;
        };
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            meta: {
              current_page: number | null;
              limit: number;
              total_pages: number;
              total_count: number;
              next_cursor: string | null;
            };
            data: {
              /** Format: uuid */
              id?: string;
              user_id?: string | null;
              username?: string | null;
              action?:
                | (
                    | 'create'
                    | 'replace'
                    | 'update'
                    | 'delete'
                    | 'login'
                    | 'login_failed'
                    | 'logout'
                    | 'password_reset'
                  )
                | null;
              resource_type?: string | null;
              resource_id?: string | null;
              changes?: {
                [key: string]: unknown;
              } | null;
              prechange?: {
                [key: string]: unknown;
              } | null;
              postchange?: {
                [key: string]: unknown;
              } | null;
              request_id?: string | null;
              client_ip?: string | null;
              /** Format: date-time */
              created_at?: string;
            }[];
          };
          'text/csv': string;
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large: a chunked body's extensions over Node's limit. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getApiTokens: {
    parameters: {
      query?: {
        /** @description Page number (default 1). */
        page?: number;
        /** @description Keyset paging: a previous page's `meta.next_cursor`. Not with `page`; valid only for the same resource, sort and filters. */
        cursor?: string;
        /** @description Comma-separated fields to return (others are left out): id, created_at, name, scopes, token_prefix, created_by, expires_at, last_used_at. */
        fields?: string;
        /** @description Return only the id and the record's name field. */
        brief?: boolean;
        /** @description `csv`: every matching row as text/csv (header row of the selected fields; cells starting with = + - @ are prefixed with '; tags joined by commas). Also `Accept: text/csv`. Not with page or cursor. */
        format?: 'json' | 'csv';
        /** @description Items per page, 1 to 100 (default 10). */
        limit?: number;
        /** @description Sort keys applied in the order given (repeat the parameter for more than one); by id last, so the order is total. */
        sortby?: string[];
        name?: string;
        /** @description Lookup filters, each its own query parameter `<field>__<lookup>=<value>` (`?hostname__ic=core&vlan_id__gte=100`; the grammar is in the API description). Per field: `name`: n in lt lte gt gte ic nic isw iew ie isnull; `id`: in. */
        lookups?: {
          name__n?: string;
          /** @description Comma-separated values (at most 100), each typed like the field. */
          name__in?: string;
          name__lt?: string;
          name__lte?: string;
          name__gt?: string;
          name__gte?: string;
          name__ic?: string;
          name__nic?: string;
          name__isw?: string;
          name__iew?: string;
          name__ie?: string;
          name__isnull?: boolean;
          /** @description Records by id: comma-separated ids (at most 100). */
          id__in?: string;
        };
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            meta: {
              current_page: number | null;
              limit: number;
              total_pages: number;
              total_count: number;
              next_cursor: string | null;
            };
            data: {
              /** Format: uuid */
              id?: string;
              name?: string;
              scopes?: ('events:write' | 'events:read')[];
              token_prefix?: string;
              created_by?: string | null;
              expires_at?: string | null;
              last_used_at?: string | null;
              /** Format: date-time */
              created_at?: string;
            }[];
          };
          'text/csv': string;
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large: a chunked body's extensions over Node's limit. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  postApiTokens: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "name": "example-name",
         *       "scopes": [
         *         "events:write"
         *       ]
         *     }
         */
        'application/json': {
          name: string;
          scopes: ('events:write' | 'events:read')[];
          expires_at?: string | null;
        };
      };
    };
    responses: {
      /** @description Default Response */
      201: {
        headers: {
          /** @description The version of the record as stored (`"1234567"`; weak, `W/"…"`, when `fields` or `brief` chose the fields): send it in If-Match to change this version only. A create of several records (an array, a CSV file) sends none. */
          ETag?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** Format: uuid */
            id: string;
            name: string;
            scopes: ('events:write' | 'events:read')[];
            token_prefix: string;
            created_by: string | null;
            expires_at: string | null;
            last_used_at: string | null;
            /** Format: date-time */
            created_at: string;
            /** @description The token itself: shown in this answer only */
            token: string;
          };
        };
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Conflict: a unique value is taken, or the change would leave no active admin. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large (BODY_LIMIT). */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Unsupported media type: send a Content-Type the operation reads. */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getApiTokensById: {
    parameters: {
      query?: {
        /** @description Comma-separated fields to return (others are left out): id, created_at, name, scopes, token_prefix, created_by, expires_at, last_used_at. */
        fields?: string;
        /** @description Return only the id and the record's name field. */
        brief?: boolean;
      };
      header?: {
        /** @description Reads: answer 304 without a body if the record's ETag is one of these. Writes: 412 and nothing changes if it is (`*`: the record exists). Evaluated after If-Match (RFC 9110 §13.2.2). Grammar (RFC 9110 §13.1): `*`, or a comma-separated list of at most 64 entity tags `"…"` or `W/"…"`; anything else is 400. */
        'if-none-match'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Every field, or only those chosen with `fields` or `brief`. */
      200: {
        headers: {
          /** @description The version of the record as stored (`"1234567"`; weak, `W/"…"`, when `fields` or `brief` chose the fields): send it in If-Match to change this version only. A create of several records (an array, a CSV file) sends none. */
          ETag?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** Format: uuid */
            id?: string;
            name?: string;
            scopes?: ('events:write' | 'events:read')[];
            token_prefix?: string;
            created_by?: string | null;
            expires_at?: string | null;
            last_used_at?: string | null;
            /** Format: date-time */
            created_at?: string;
          };
        };
      };
      /** @description Not modified: the ETag sent is current. */
      304: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No such record (a batch: one of the ids names none). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large: a chunked body's extensions over Node's limit. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  deleteApiTokensById: {
    parameters: {
      query?: never;
      header?: {
        /** @description Write only if the record's ETag is one of these (`"123"`, a list, or `*`): else 412 and nothing changes. Grammar (RFC 9110 §13.1): `*`, or a comma-separated list of at most 64 entity tags `"…"` or `W/"…"`; anything else is 400. */
        'if-match'?: string;
        /** @description Reads: answer 304 without a body if the record's ETag is one of these. Writes: 412 and nothing changes if it is (`*`: the record exists). Evaluated after If-Match (RFC 9110 §13.2.2). Grammar (RFC 9110 §13.1): `*`, or a comma-separated list of at most 64 entity tags `"…"` or `W/"…"`; anything else is 400. */
        'if-none-match'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Bad request: a parameter, header or body value is invalid (the message names it). */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No valid token (missing, expired, revoked or malformed). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The token's role, scope or account may not do this; or a browser request from an origin CORS_ORIGINS does not allow, or a write sent by another site (Sec-Fetch-Site: cross-site). */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No such record (a batch: one of the ids names none). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); the connection is closed. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Conflict: a unique value is taken, or the change would leave no active admin. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Precondition Failed: the record changed since the ETag sent was read; nothing was changed. Read it again (its new ETag) and retry. */
      412: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request body too large: a chunked body's extensions over Node's limit. */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description URI too long: the request target over 8,190 characters, or a path parameter over its limit. */
      414: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Misdirected request: a Host the service does not serve (ALLOWED_HOSTS). */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too many requests: wait Retry-After seconds. */
      429: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Request headers too large: the request line or headers over 16 KiB; the connection is closed. */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Database unavailable: retry after Retry-After seconds. */
      503: {
        headers: {
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '4XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Default Response */
      '5XX': {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
}
