// Runs http-tests/cache-tests (vendored under suite/) against Sluice's HTTP cache.
//
//   node Tests/CacheTests/run.mjs --bridge PATH --store memory|disk [--directory DIR] [--results FILE]
//
// The suite's own server (suite/test-engine/server) runs in a child process on a free loopback
// port. The suite's client (suite/test-engine/client/runner.mjs) calls the global `fetch`: its
// test requests (`/test/...`) are handed to the bridge, a Sluice executable whose one long-lived
// SessionManager sends them through a ResponseCaching stage; the set-up calls (`/config`,
// `/state`) go to the server directly. The suite runs in its browser mode (the cache under test
// is the client's own, as a browser's is), so the browsers' results it ships are the peers.
//
// Prints each group's passes beside Chrome's, Firefox's and Safari's, and each test that fails,
// and compares the failures with expected-failures.json: a failure not listed there makes the
// exit status 1; a listed one that passes is reported.

import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { fileURLToPath } from 'node:url'
import path from 'node:path'

const here = path.dirname(fileURLToPath(import.meta.url))
const args = process.argv.slice(2)
const option = (name) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined }
const bridgePath = option('--bridge')
const store = option('--store') ?? 'memory'
const directory = option('--directory')
const resultsFile = option('--results')
if (!bridgePath) {
  console.error('run.mjs: --bridge PATH (the sluice-cache-bridge executable) is required')
  process.exit(2)
}

const freePort = () => new Promise((resolve, reject) => {
  const probe = createServer()
  probe.once('error', reject)
  probe.listen(0, '127.0.0.1', () => { const { port } = probe.address(); probe.close(() => resolve(port)) })
})

// The suite's server.
const port = await freePort()
const server = spawn(process.execPath, [path.join(here, 'suite/test-engine/server/server.mjs')], {
  env: { ...process.env, npm_config_protocol: 'http', npm_config_port: String(port), npm_config_pidfile: path.join(directory ?? '/tmp', `cache-tests-${port}.pid`) },
  stdio: ['ignore', 'pipe', 'inherit']
})
await new Promise((resolve, reject) => {
  server.once('exit', code => reject(new Error(`the cache-tests server exited (${code})`)))
  createInterface({ input: server.stdout }).on('line', line => { if (line.startsWith('Listening')) resolve() })
})
const baseUrl = `http://127.0.0.1:${port}`

// The bridge.
const bridgeArgs = ['--store', store].concat(directory ? ['--directory', directory] : [])
const bridge = spawn(bridgePath, bridgeArgs, { stdio: ['pipe', 'pipe', 'inherit'] })
const waiting = new Map()
let nextId = 1
createInterface({ input: bridge.stdout }).on('line', line => {
  const answer = JSON.parse(line)
  const pending = waiting.get(answer.id)
  if (!pending) return
  waiting.delete(answer.id)
  pending(answer)
})

// fetch's cache modes, as the request directives Sluice's cache honours.
const cacheModes = {
  'no-store': 'no-store',
  reload: 'no-cache',
  'no-cache': 'max-age=0',
  'force-cache': 'max-stale',
  'only-if-cached': 'only-if-cached'
}
const nullBodyStatuses = new Set([101, 103, 204, 205, 304])
const realFetch = globalThis.fetch

function bridgeFetch (url, init = {}) {
  const headers = []
  for (const [name, value] of new Headers(init.headers ?? [])) headers.push([name, value])
  if (init.cache && cacheModes[init.cache]) headers.push(['cache-control', cacheModes[init.cache]])
  const id = nextId++
  const request = {
    id,
    method: init.method ?? 'GET',
    url,
    headers,
    body: init.body === undefined ? undefined : Buffer.from(init.body).toString('base64'),
    redirect: init.redirect ?? 'follow'
  }
  return new Promise((resolve, reject) => {
    init.signal?.addEventListener('abort', () => {
      waiting.delete(id)
      reject(Object.assign(new Error('the request timed out'), { name: 'AbortError' }))
    })
    waiting.set(id, answer => {
      if (answer.error) return reject(new TypeError(answer.error))
      const responseHeaders = new Headers()
      for (const [name, value] of answer.headers) responseHeaders.append(name, value)
      const body = nullBodyStatuses.has(answer.status) ? null : Buffer.from(answer.body, 'base64')
      // Response refuses statuses outside 200-599; the suite compares the number.
      const response = new Response(body, { status: answer.status >= 200 && answer.status <= 599 ? answer.status : 599, headers: responseHeaders })
      if (answer.status < 200 || answer.status > 599) Object.defineProperty(response, 'status', { value: answer.status })
      resolve(response)
    })
    bridge.stdin.write(JSON.stringify(request) + '\n')
  })
}

globalThis.fetch = (url, init) => new URL(url).pathname.startsWith('/test/') ? bridgeFetch(String(url), init) : realFetch(url, init)

const { runTests, getResults } = await import('./suite/test-engine/client/runner.mjs')
const { determineTestResult, resultTypes } = await import('./suite/test-engine/lib/results.mjs')
const { default: suites } = await import('./suite/tests/index.mjs')

await runTests(suites, true, baseUrl)
const results = getResults()
bridge.stdin.end()
server.kill()

// What each test gave, as the suite's own reports name it.
const names = new Map(Object.entries(resultTypes).map(([name, type]) => [type, name]))
const verdict = (testId, set) => names.get(determineTestResult(suites, testId, set))
const peers = Object.fromEntries(['chrome', 'firefox', 'safari'].map(name => [name, JSON.parse(readFileSync(path.join(here, `suite/results/${name}.json`), 'utf8'))]))

const counted = { required: ['pass', 'fail'], optimal: ['pass', 'optional_fail'] }
const totals = {}
const rows = []
const failures = []
for (const suite of suites) {
  const row = { suite: suite.name }
  for (const who of ['sluice', 'chrome', 'firefox', 'safari']) {
    const set = who === 'sluice' ? results : peers[who]
    for (const [kind, [passName, failName]] of Object.entries(counted)) {
      let passed = 0
      let run = 0
      for (const test of suite.tests) {
        if ((test.kind ?? 'required') !== kind || test.cdn_only === true || test.browser_skip === true) continue
        const result = verdict(test.id, set)
        if (result === passName) { passed++; run++ } else if (result === failName) { run++ }
      }
      row[`${who} ${kind}`] = `${passed}/${run}`
      totals[`${who} ${kind}`] = (totals[`${who} ${kind}`] ?? [0, 0]).map((value, i) => value + [passed, run][i])
    }
  }
  rows.push(row)
  for (const test of suite.tests) {
    const result = verdict(test.id, results)
    if (['fail', 'optional_fail', 'setup_fail', 'harness_fail', 'retry', 'dependency_fail'].includes(result)) {
      failures.push({ id: test.id, kind: test.kind ?? 'required', result, detail: (results[test.id] || [])[1] ?? '' })
    }
  }
}

console.log(`cache-tests (http-tests/cache-tests), Sluice with a ${store} store, beside the browsers' published results`)
const columns = ['sluice required', 'chrome required', 'firefox required', 'safari required', 'sluice optimal', 'chrome optimal', 'firefox optimal', 'safari optimal']
console.log(['group'.padEnd(44), ...columns.map(c => c.padStart(17))].join(''))
for (const row of rows) console.log([row.suite.slice(0, 43).padEnd(44), ...columns.map(c => row[c].padStart(17))].join(''))
console.log(['all'.padEnd(44), ...columns.map(c => `${totals[c][0]}/${totals[c][1]}`.padStart(17))].join(''))

const expected = JSON.parse(readFileSync(path.join(here, 'expected-failures.json'), 'utf8'))
const known = new Map(expected.failures.map(entry => [entry.id, entry]))
const unexpected = failures.filter(failure => !known.has(failure.id))
const fixed = [...known.keys()].filter(id => !failures.some(failure => failure.id === id))
console.log(`\n${failures.length} tests fail, each listed with its reason in expected-failures.json:`)
for (const failure of failures) {
  const reason = known.get(failure.id)?.reason ?? `NOT EXPECTED: ${failure.detail}`
  console.log(`  ${failure.kind.padEnd(8)} ${failure.id}: ${reason}`)
}
// A listed test that passes is news, not a failure: timing-bound tests may pass on a quiet machine.
for (const id of fixed) console.log(`  ${id}: listed in expected-failures.json, but passes now: take it off the list`)
if (resultsFile) writeFileSync(resultsFile, JSON.stringify({ store, results, totals }, null, 2))
if (unexpected.length > 0) console.log(`\n${unexpected.length} failures not in expected-failures.json: ${unexpected.map(f => f.id).join(', ')}`)
process.exit(unexpected.length === 0 ? 0 : 1)
