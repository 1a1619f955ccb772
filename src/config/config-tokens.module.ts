import { Global, Module } from '@nestjs/common';
import { CONFIG_NAMESPACES } from '.';
import { configToken, configTokenProviders } from './config-token';

/** Every config namespace injectable by its type (configToken), everywhere. */
@Global()
@Module({
  providers: configTokenProviders(CONFIG_NAMESPACES),
  exports: CONFIG_NAMESPACES.map((namespace) => configToken(namespace)),
})
export class ConfigTokensModule {}
