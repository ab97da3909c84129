import { Inject, Injectable } from '@nestjs/common';
import { GroupsChanged } from '../../../shared/catalog-events.js';
import { NamedResourceWrites, NamedResourceWriting } from '../../audit/application/named-resource-writes.js';
import { GroupRepository, type GroupSpec } from '../domain/group.js';
import { GROUP_FIELDS } from '../domain/group-spec.js';
import { groupNameTaken, groupNotFound } from './group-errors.js';

/** The audited writes of tool groups: each change heard by every process's group views. */
@Injectable()
export class GroupWrites extends NamedResourceWrites<GroupSpec> {
  constructor(@Inject(GroupRepository) groups: GroupRepository, @Inject(NamedResourceWriting) writing: NamedResourceWriting) {
    super(
      {
        noun: 'group',
        notFound: groupNotFound,
        taken: groupNameTaken,
        auditForm: (group: GroupSpec) => Object.fromEntries(GROUP_FIELDS.map((field) => [field, group[field]])),
        announce: (name: string) => writing.notifier.notifyGroupChanged(name),
        changed: async (name: string) => writing.events.publish(new GroupsChanged(name)),
      },
      groups,
      writing,
    );
  }
}
