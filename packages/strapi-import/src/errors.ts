// A refusal or failure of an import that its caller shows as it is (the CLI prints the message
// and exits 1): an unreadable or encrypted archive, a Strapi 4 export, a destructive model change.
export class ImportError extends Error {
  override readonly name = 'ImportError';
}
