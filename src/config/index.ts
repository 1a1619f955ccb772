import { appConfig } from './app.config';
import { databaseConfig } from './database.config';

/** Every config namespace; each validates its own variables when the app boots. */
export const CONFIG_NAMESPACES = [appConfig, databaseConfig];
