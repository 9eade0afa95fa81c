import { lazySchema, type Infer, type Zod } from './lazy-schema';

/*
 * What a Magic Containers application runs and where: GET /mc/apps/{appId} (templates, instances,
 * volume templates), its /overview (instances per region, pods), its /volumes (volume instances
 * per region) and GET /mc/registries. Lenient like the app list: the real API has sent null for
 * fields its document marks non-null, so every field but the ids may be missing or null.
 */

const str = (z: Zod) => z.string().nullish();
const num = (z: Zod) => z.number().nullish();

export const ContainerEndpointSchema = lazySchema((z) =>
  z.looseObject({
    id: z.string(),
    displayName: str(z),
    publicHost: str(z),
    type: str(z),
    isSslEnabled: z.boolean().nullish(),
    pullZoneId: str(z),
    portMappings: z
      .array(z.looseObject({ containerPort: num(z), exposedPort: num(z), protocols: z.array(z.string()).nullish() }))
      .nullish()
      .transform((v) => v ?? []),
  }),
);
export type ContainerEndpoint = Infer<typeof ContainerEndpointSchema>;

export const ContainerTemplateSchema = lazySchema((z) =>
  z.looseObject({
    id: z.string(),
    name: str(z),
    image: str(z),
    imageName: str(z),
    imageNamespace: str(z),
    imageTag: str(z),
    imageRegistryId: str(z),
    imageDigest: str(z),
    imagePullPolicy: str(z),
    environmentVariables: z
      .array(z.looseObject({ name: z.string(), value: str(z) }))
      .nullish()
      .transform((v) => v ?? []),
    endpoints: z
      .array(ContainerEndpointSchema.of(z))
      .nullish()
      .transform((v) => v ?? []),
    volumeMounts: z
      .array(z.looseObject({ name: z.string(), mountPath: str(z) }))
      .nullish()
      .transform((v) => v ?? []),
  }),
);
export type ContainerTemplate = Infer<typeof ContainerTemplateSchema>;

export const ContainerInstanceSchema = lazySchema((z) =>
  z.looseObject({
    id: z.string(),
    templateId: str(z),
    podId: str(z),
    nodeIpAddress: str(z),
  }),
);
export type ContainerInstance = Infer<typeof ContainerInstanceSchema>;

/** GET /mc/apps/{appId}: the application with what it runs. */
export const AppDetailSchema = lazySchema((z) =>
  z.looseObject({
    id: z.string(),
    name: str(z),
    status: str(z),
    runtimeType: str(z),
    containerTemplates: z
      .array(ContainerTemplateSchema.of(z))
      .nullish()
      .transform((v) => v ?? []),
    containerInstances: z
      .array(ContainerInstanceSchema.of(z))
      .nullish()
      .transform((v) => v ?? []),
    volumes: z
      .array(z.looseObject({ name: z.string(), size: num(z) }))
      .nullish()
      .transform((v) => v ?? []),
    autoScaling: z.looseObject({ min: num(z), max: num(z) }).nullish(),
  }),
);
export type AppDetail = Infer<typeof AppDetailSchema>;

const indicator = (z: Zod) => z.looseObject({ indicator: num(z), statusGrade: str(z) }).nullish();

/** GET /mc/apps/{appId}/overview: the instances per region and their pods. */
export const AppOverviewSchema = lazySchema((z) =>
  z.looseObject({
    status: str(z),
    desiredInstances: num(z),
    activeInstances: indicator(z),
    activeRegions: indicator(z),
    regions: z
      .array(
        z.looseObject({
          region: z.string(),
          isRequired: z.boolean().nullish(),
          instances: num(z),
          status: str(z),
          pods: z
            .array(z.looseObject({ name: str(z), status: str(z) }))
            .nullish()
            .transform((v) => v ?? []),
        }),
      )
      .nullish()
      .transform((v) => v ?? []),
  }),
);
export type AppOverview = Infer<typeof AppOverviewSchema>;

export const VolumeSchema = lazySchema((z) =>
  z.looseObject({
    id: str(z),
    name: str(z),
    size: num(z),
    totalUsage: num(z),
    totalInstancesCount: num(z),
    attachedInstancesCount: num(z),
    volumeInstances: z
      .array(z.looseObject({ id: str(z), region: str(z), status: str(z), size: num(z), usage: num(z), attachedPods: z.array(z.string()).nullish() }))
      .nullish()
      .transform((v) => v ?? []),
  }),
);
export type Volume = Infer<typeof VolumeSchema>;

/** GET /mc/apps/{appId}/volumes: one answer (the document gives it no paging parameters). */
export const VolumesAnswerSchema = lazySchema((z) =>
  z.looseObject({
    items: z
      .array(VolumeSchema.of(z))
      .nullish()
      .transform((v) => v ?? []),
    summary: z.looseObject({ totalPods: num(z), totalContainers: num(z), totalStorage: num(z) }).nullish(),
  }),
);
export type VolumesAnswer = Infer<typeof VolumesAnswerSchema>;

/** A registry's password is never sent: its first and last symbols are. */
export const RegistrySchema = lazySchema((z) =>
  z.looseObject({
    id: z.number().int(),
    displayName: str(z),
    hostName: str(z),
    namespaceId: str(z),
    userName: str(z),
    firstPasswordSymbols: str(z),
    lastPasswordSymbols: str(z),
    isPublic: z.boolean().nullish(),
    isPlatformManaged: z.boolean().nullish(),
    createdAt: str(z),
  }),
);
export type Registry = Infer<typeof RegistrySchema>;

export const RegistriesAnswerSchema = lazySchema((z) =>
  z.looseObject({
    items: z
      .array(RegistrySchema.of(z))
      .nullish()
      .transform((v) => v ?? []),
  }),
);
