import { describeDeploymentJourney } from "../e2e/deployment-journey";
import { describeTeamScenarios } from "./shared-backend-scenarios";

/**
 * The suite on a real PostgreSQL backend (`pulumi login postgres://...`): a private
 * cluster per scenario, started by the test (test/backends/postgres-cluster.ts). The deployment
 * journey ends by dumping the database (pg_dump) and searching it, each stored value decoded, for
 * every secret.
 */
describeDeploymentJourney("postgres");
describeTeamScenarios("postgres");
