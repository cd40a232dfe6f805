import { describeLanguageJourney } from "./language-journey";

// The yaml program of test/e2e/languages/yaml (docs/languages.md), through the provider plugin.
describeLanguageJourney("yaml");
