import { Module } from '@nestjs/common';
import type { DynamicModule } from '@nestjs/common';
import { ScopeToolModule } from 'scope-tool/nest';
import { AssistantModule } from './assistant.module';
import { KnownCallerPolicy } from './known-caller.policy';

/** The application: ScopeToolModule finds the toolsets of AssistantModule and asks KnownCallerPolicy first on every call. */
@Module({})
export class AppModule {
  static withManifest(manifest: string): DynamicModule {
    return {
      module: AppModule,
      imports: [ScopeToolModule.forRoot({ manifest, policies: [KnownCallerPolicy] }), AssistantModule],
    };
  }
}
