import { z } from 'zod';
import type { HttpClient } from './http';

const int = z.number().int();
export const ContainerLimitsSchema = z.object({
  maxNumberOfApplications: int,
  existingNumberOfApplications: int,
  maxNumberOfRegionsPerApplication: int.nullable(),
  maxNumberOfInstancesPerRegion: int,
  maxNumberOfInstancesPerApplication: int.nullable(),
  maxNumberOfVolumesPerApplication: int,
  maxVolumeSize: int.nullable(),
});
export type ContainerLimits = z.infer<typeof ContainerLimitsSchema>;

/** Magic Containers (`{base}/mc`). */
export class ContainersApi {
  constructor(private readonly http: HttpClient) {}

  getLimits(signal?: AbortSignal): Promise<ContainerLimits> {
    return this.http.getJson('/mc/limits', ContainerLimitsSchema, { signal });
  }
}
