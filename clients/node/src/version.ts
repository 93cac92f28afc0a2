/** The library's version: sent in the User-Agent and kept equal to package.json's by the build test. */
export const VERSION = "0.1.0";
