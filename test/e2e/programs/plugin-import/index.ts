// Empty until the test pastes the code `pulumi import` printed.
export {};
