import { describeLanguageJourney } from "./language-journey";

// The go program of test/e2e/languages/go (docs/languages.md), through the provider plugin.
describeLanguageJourney("go");
