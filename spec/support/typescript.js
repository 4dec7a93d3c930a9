/** `typescript` in the specs: the worker's one compiler (see spec/support/environment.js). */
module.exports = globalThis.__workerTypescript;
