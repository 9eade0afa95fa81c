import { INT32_MAX } from '../../api/input-checks';
import type { ApiGuardian } from '../../api/shield';
import { apiGuardianRows } from '../../renderers/api-guardian';
import { fieldColumns, type FieldRow } from '../../renderers/field-rows';
import { defineResource } from '../resource';
import { parseIdArg } from './parse-id';

export const apiGuardianResource = defineResource<ApiGuardian, FieldRow>({
  name: 'api-guardian',
  arg: 'ID',
  summary: 'API Guardian configuration and endpoints of a shield zone',
  single: true,
  parseArg: (arg) => void parseIdArg('shield zone ID', arg, INT32_MAX),
  async fetch(platform, arg, signal) {
    return [await platform.api.shield.getApiGuardian(parseIdArg('shield zone ID', arg ?? '', INT32_MAX), signal)];
  },
  rows: (records) => records.flatMap(apiGuardianRows),
  columns: fieldColumns,
});
