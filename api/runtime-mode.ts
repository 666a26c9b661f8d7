/**
 * Imported first by the server entry: React picks its production build (several times faster at
 * rendering pages) from NODE_ENV when first loaded, and the environment's documented default is
 * production. Development and test runs set NODE_ENV themselves.
 */
process.env.NODE_ENV ??= "production";
