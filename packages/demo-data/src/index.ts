export { HOME_TIME_ZONES, type HomeTimeZone } from "./catalog";
export { type DemoOrganization, demoDataset } from "./demoDataset";
export { type GenerateEventsOptions, generateEvents } from "./eventGenerator";
export {
  buildOrganization,
  largeOrganization,
  type OrganizationProfile,
  type OrganizationShape,
  type SmallOrganizationOptions,
  smallOrganization,
} from "./organizationProfile";
export { type BatchOptions, type ProduceEventsOptions, produceEvents, sendInBatches } from "./produceEvents";
