-- wrk script for the sheets benchmark (driven by sheets-bench.py).
--
-- SHEETS_BENCH_MODE=relations: POST /v1/sheets/:id/relations {"songIds":[...]} to the sheets listed in
--   SHEETS_BENCH_PLAN (one "sheetId token" a line), round robin; each wrk thread owns every n-th sheet, so
--   no two threads write the same sheet. Each sheet walks through the song ids of SHEETS_BENCH_SONGS (one
--   a line) SHEETS_BENCH_PER_REQUEST at a time, so every request inserts new songs until a sheet has seen
--   min(#songs, 10000) of them (after that requests are no-ops; sheets-bench.py reports the share).
-- SHEETS_BENCH_MODE=detail: GET SHEETS_BENCH_PATH with the token in SHEETS_BENCH_TOKEN (may be empty).
--
-- done() prints one line "WRK_JSON {...}" with the figures (latency in microseconds).

local thread_count = 0

function setup(thread)
  thread:set("tid", thread_count)
  thread_count = thread_count + 1
end

local function lines(path)
  local list = {}
  for line in io.lines(path) do
    if line ~= "" then table.insert(list, line) end
  end
  return list
end

local mode, mine, songs, per, cap, turn, threads
local detail_request

function init(args)
  mode = os.getenv("SHEETS_BENCH_MODE") or "relations"
  if mode == "detail" then
    local headers = {}
    local token = os.getenv("SHEETS_BENCH_TOKEN") or ""
    if token ~= "" then headers["Authorization"] = token end
    detail_request = wrk.format("GET", os.getenv("SHEETS_BENCH_PATH"), headers)
    return
  end
  threads = tonumber(os.getenv("SHEETS_BENCH_THREADS"))
  per = tonumber(os.getenv("SHEETS_BENCH_PER_REQUEST") or "2")
  songs = lines(os.getenv("SHEETS_BENCH_SONGS"))
  cap = math.min(#songs, 10000)
  mine = {}
  for index, line in ipairs(lines(os.getenv("SHEETS_BENCH_PLAN"))) do
    if (index - 1) % threads == tid then
      local sheet, token = line:match("^(%S+)%s+(%S+)$")
      -- Sheets start at different songs so they do not all hold the same ones.
      table.insert(mine, { sheet = sheet, token = token, start = (index * 7919) % #songs, cursor = 0 })
    end
  end
  turn = 1
end

function request()
  if mode == "detail" then return detail_request end
  local p = mine[turn]
  turn = turn % #mine + 1
  local ids = {}
  for k = 1, per do
    local c = p.cursor % cap -- past the cap: songs the sheet already holds (a no-op)
    ids[k] = '"' .. songs[(p.start + c) % #songs + 1] .. '"'
    p.cursor = p.cursor + 1
  end
  return wrk.format("POST", "/v1/sheets/" .. p.sheet .. "/relations",
    { ["Authorization"] = p.token, ["Content-Type"] = "application/json" },
    '{"songIds":[' .. table.concat(ids, ",") .. ']}')
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'WRK_JSON {"requests": %d, "duration_us": %d, "bytes": %d, "errors": {"connect": %d, "read": %d, '
      .. '"write": %d, "status": %d, "timeout": %d}, "latency_us": {"p50": %d, "p90": %d, "p99": %d, '
      .. '"max": %d, "mean": %.1f}}\n',
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max, latency.mean))
end
