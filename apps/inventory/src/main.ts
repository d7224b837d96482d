// `npm start` (compiled) and `npm run inventory` (sources): the service started by the
// platform's one start-up; what is the inventory's own is in service.ts.
import { runService } from '@netops/service-runtime';
import { inventoryService } from './service.js';

await runService(inventoryService);
