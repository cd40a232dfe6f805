/*
 * Names `runpod-iac/sdk` exported before every version-specific class ended in its version (v1's
 * own classes had no suffix) and before the version-neutral layer over v2 was named for what it
 * is (its classes ended in `OnV2`). Each old name is the same class as its new one, so programs
 * that import it, construct it or test `instanceof` keep working; editors show them struck through.
 */
import { ContainerRegistryAuthsV1 } from "./management/v1/container-registry-auths";
import { EndpointsV1 } from "./management/v1/endpoints";
import { NetworkVolumesV1 } from "./management/v1/network-volumes";
import { PodsV1 } from "./management/v1/pods";
import { TemplatesV1 } from "./management/v1/templates";
import { NeutralBillingOverV2 } from "./management/neutral/over-v2/billing";
import { NeutralEndpointsOverV2 } from "./management/neutral/over-v2/endpoints";
import { NeutralNetworkVolumesOverV2 } from "./management/neutral/over-v2/network-volumes";
import { NeutralPodsOverV2 } from "./management/neutral/over-v2/pods";
import { NeutralContainerRegistryAuthsOverV2 } from "./management/neutral/over-v2/registry-auths";
import { NeutralTemplatesOverV2 } from "./management/neutral/over-v2/templates";

/** @deprecated use {@link NetworkVolumesV1} */
export const NetworkVolumes = NetworkVolumesV1;
/** @deprecated use {@link NetworkVolumesV1} */
export type NetworkVolumes = NetworkVolumesV1;
/** @deprecated use {@link EndpointsV1} */
export const Endpoints = EndpointsV1;
/** @deprecated use {@link EndpointsV1} */
export type Endpoints = EndpointsV1;
/** @deprecated use {@link TemplatesV1} */
export const Templates = TemplatesV1;
/** @deprecated use {@link TemplatesV1} */
export type Templates = TemplatesV1;
/** @deprecated use {@link ContainerRegistryAuthsV1} */
export const ContainerRegistryAuths = ContainerRegistryAuthsV1;
/** @deprecated use {@link ContainerRegistryAuthsV1} */
export type ContainerRegistryAuths = ContainerRegistryAuthsV1;
/** @deprecated use {@link PodsV1} */
export const Pods = PodsV1;
/** @deprecated use {@link PodsV1} */
export type Pods = PodsV1;

/** @deprecated use {@link NeutralNetworkVolumesOverV2} */
export const NetworkVolumesOnV2 = NeutralNetworkVolumesOverV2;
/** @deprecated use {@link NeutralNetworkVolumesOverV2} */
export type NetworkVolumesOnV2 = NeutralNetworkVolumesOverV2;
/** @deprecated use {@link NeutralEndpointsOverV2} */
export const EndpointsOnV2 = NeutralEndpointsOverV2;
/** @deprecated use {@link NeutralEndpointsOverV2} */
export type EndpointsOnV2 = NeutralEndpointsOverV2;
/** @deprecated use {@link NeutralTemplatesOverV2} */
export const TemplatesOnV2 = NeutralTemplatesOverV2;
/** @deprecated use {@link NeutralTemplatesOverV2} */
export type TemplatesOnV2 = NeutralTemplatesOverV2;
/** @deprecated use {@link NeutralContainerRegistryAuthsOverV2} */
export const ContainerRegistryAuthsOnV2 = NeutralContainerRegistryAuthsOverV2;
/** @deprecated use {@link NeutralContainerRegistryAuthsOverV2} */
export type ContainerRegistryAuthsOnV2 = NeutralContainerRegistryAuthsOverV2;
/** @deprecated use {@link NeutralPodsOverV2} */
export const PodsOnV2 = NeutralPodsOverV2;
/** @deprecated use {@link NeutralPodsOverV2} */
export type PodsOnV2 = NeutralPodsOverV2;
/** @deprecated use {@link NeutralBillingOverV2} */
export const BillingOnV2 = NeutralBillingOverV2;
/** @deprecated use {@link NeutralBillingOverV2} */
export type BillingOnV2 = NeutralBillingOverV2;
