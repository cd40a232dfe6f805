import { describeDeploymentJourney } from "./deployment-journey";

/**
 * The whole deployment on a file backend (the shared backends run it too), on
 * the default API version (v2), and on v1: the template link differs (v1's platform
 * rolls a linked endpoint and an image changed outside Pulumi reaches it; v2's provider re-applies
 * the template itself).
 */
describeDeploymentJourney("file");
describeDeploymentJourney("file", "v1");
