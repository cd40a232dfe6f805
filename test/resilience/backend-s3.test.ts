import { describeDeploymentJourney } from "../e2e/deployment-journey";
import { describeTeamScenarios } from "./shared-backend-scenarios";

/**
 * The suite on an S3-compatible backend (`pulumi login s3://...`): a private SeaweedFS
 * server per scenario, started by the test (test/backends/seaweedfs-server.ts). The deployment
 * journey ends by reading every object of the bucket and searching it for every secret.
 */
describeDeploymentJourney("s3");
describeTeamScenarios("s3");
