import type { RegionSettings } from '../../api/containers';
import { regionSettingsRows } from '../../renderers/container-regions';
import { fieldColumns, type FieldRow } from '../../renderers/field-rows';
import { defineResource } from '../resource';
import { UsageError } from '../types';

const APP_ID = /^[A-Za-z0-9_-]{1,64}$/;

export const regionSettingsResource = defineResource<RegionSettings, FieldRow>({
  name: 'region-settings',
  arg: 'APP',
  summary: 'allowed and required regions of a container application (APP is its id)',
  single: true,
  parseArg(arg) {
    if (!APP_ID.test(arg))
      throw new UsageError(`APP must be an application id: 1 to 64 letters, digits, "-" or "_" (see burrow get apps), got "${arg.slice(0, 40)}"`);
  },
  async fetch(platform, arg, signal) {
    return [await platform.api.containers.getRegionSettings(arg ?? '', signal)];
  },
  rows: (records) => records.flatMap(regionSettingsRows),
  columns: fieldColumns,
});
