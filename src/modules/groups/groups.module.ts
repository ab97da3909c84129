import { Module } from '@nestjs/common';
import { TypeormUnitOfWork } from '../../shared/database/typeorm-unit-of-work.js';
import { AuditModule } from '../audit/audit.module.js';
import { CreateGroupHandler } from './application/create-group/create-group.handler.js';
import { DeleteGroupHandler } from './application/delete-group/delete-group.handler.js';
import { GetGroupHandler } from './application/get-group/get-group.handler.js';
import { GroupDefinitions } from './application/group-definitions.js';
import { NamedResourceWriting } from '../audit/application/named-resource-writes.js';
import { GroupWrites } from './application/group-writes.js';
import { ListGroupsHandler } from './application/list-groups/list-groups.handler.js';
import { UpdateGroupHandler } from './application/update-group/update-group.handler.js';
import { GroupRepository } from './domain/group.js';
import { SqlGroupRepository } from './infrastructure/sql-group.repository.js';
import { GroupsController } from './interface/groups.controller.js';

/** Tool groups: their definitions (`/api/v1/groups`), held in memory by GroupDefinitions for the catalog's group views. */
@Module({
  imports: [AuditModule],
  controllers: [GroupsController],
  providers: [
    { provide: GroupRepository, useFactory: (uow: TypeormUnitOfWork) => new SqlGroupRepository(uow), inject: [TypeormUnitOfWork] },
    GroupDefinitions,
    NamedResourceWriting,
    GroupWrites,
    CreateGroupHandler,
    UpdateGroupHandler,
    DeleteGroupHandler,
    GetGroupHandler,
    ListGroupsHandler,
  ],
  exports: [GroupDefinitions, GroupRepository],
})
export class GroupsModule {}
