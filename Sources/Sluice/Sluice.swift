// `import Sluice`: the core (requests, the chain, the stages, trust, cookies, the cache) and the
// libcurl transport that moves its bytes, as one module.
@_exported import SluiceCore
@_exported import SluiceCurl
