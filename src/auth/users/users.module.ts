import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Argon2Gate } from './argon2-gate';
import { User } from './user.entity';
import { UsersService } from './users.service';

@Module({
  imports: [TypeOrmModule.forFeature([User])],
  providers: [UsersService, Argon2Gate],
  exports: [UsersService, Argon2Gate],
})
export class UsersModule {}
