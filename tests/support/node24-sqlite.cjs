// Preloaded (--require, in every process and worker thread) by scripts/test-node24.sh: the
// better-sqlite3 addon in node_modules is built for Node 20, so loading it is sent to the copy built
// for the running Node, named by PLINTH_SQLITE_ADDON. Everything else loads as it is.
"use strict";
const addon = process.env.PLINTH_SQLITE_ADDON;
if (!addon) throw new Error("PLINTH_SQLITE_ADDON names no better-sqlite3 addon");
const dlopen = process.dlopen;
process.dlopen = function (module, filename, ...rest) {
  const target = filename.endsWith("/better-sqlite3/build/Release/better_sqlite3.node") ? addon : filename;
  return dlopen.call(this, module, target, ...rest);
};
