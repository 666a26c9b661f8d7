/**
 * Imported first by the scripts that render pages in bulk or measure them: React picks its
 * production build (several times faster than the development one) from NODE_ENV when first
 * loaded, so NODE_ENV must be set before any module imports react.
 */
process.env.NODE_ENV = "production";
