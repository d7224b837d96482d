// `npm run chat`: the service started by the platform's one start-up (see service.ts).
import { runService } from '@netops/service-runtime';
import { chatService } from './service.js';

await runService(chatService);
