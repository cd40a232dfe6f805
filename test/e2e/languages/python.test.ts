import { describeLanguageJourney } from "./language-journey";

// The python program of test/e2e/languages/python (docs/languages.md), through the provider plugin.
describeLanguageJourney("python");
