// Loaded with `node --require` by late-builtins.test.ts and remote.lab.test.ts: names the built-in modules first loaded
// after the launcher changed V8's flags. V8 refuses Node's own code cache for those, so each is
// compiled from source (app/cli/launch/code-cache.ts NODE_COMMAND_BUILTINS).
'use strict';
const process = require('node:process');
const v8 = require('node:v8');
const set = v8.setFlagsFromString;
let from;
v8.setFlagsFromString = function (...args) {
  if (from === undefined) from = process.moduleLoadList.length;
  return set.apply(this, args);
};
process.on('exit', () => {
  const late =
    from === undefined
      ? null
      : process.moduleLoadList
          .slice(from)
          .filter((m) => m.startsWith('NativeModule '))
          .map((m) => m.slice('NativeModule '.length));
  require('node:fs').writeSync(2, `\nlate built-ins: ${JSON.stringify(late)}\n`);
});
