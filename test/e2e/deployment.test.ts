import { describeDeploymentJourney } from "./deployment-journey";

/** Issue 12: the whole deployment on a file backend (the shared backends run it too: issue 23). */
describeDeploymentJourney("file");
