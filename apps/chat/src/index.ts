// Placeholder until this app's issue lands.
export {};
