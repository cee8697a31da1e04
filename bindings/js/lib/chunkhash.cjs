'use strict';
// The CommonJS entry. CommonJS cannot load an ES module synchronously, and
// `init()` is asynchronous anyway: it imports the ES module, and every other
// function forwards to it. Both entries therefore share one instance (no
// second copy of the WebAssembly memory or of the algorithm table).

let esm = null;

exports.init = async function init(options) {
  esm ??= await import('./chunkhash.mjs');
  return esm.init(options);
};

const forwarded = [
  'simdSupported', 'blake3', 'hash', 'checksum', 'hashMany', 'createHasher', 'sealTrailer', 'verifyTrailer',
  'baoOutboard', 'baoEncode', 'baoSlice', 'baoDecode', 'chunk',
  'algorithms', 'buildInfo', 'memoryBytes', 'liveHashers', 'toHex', '_benchmarkEngine',
];
for (const name of forwarded) {
  exports[name] = function (...args) {
    if (esm === null) throw new Error('chunkhash: call `await init()` before hashing');
    return esm[name](...args);
  };
}

// The classes, for `instanceof`; defined once `init()` has loaded them.
for (const name of ['Hasher', 'TrailerError', 'BaoError']) {
  Object.defineProperty(exports, name, { enumerable: true, get: () => esm?.[name] });
}
