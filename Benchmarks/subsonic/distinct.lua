-- wrk script: every request a different search3 query, read from a file (see queries.py).
--
--   wrk ... -s distinct.lua URL -- PATH_PREFIX QUERIES_FILE START THREADS
--
-- PATH_PREFIX is the path and query up to "query=" (the method, the credentials and the counts), START where
-- in the file this run begins (each round starts elsewhere), THREADS wrk's -t: thread k sends queries
-- START+k, START+k+THREADS, ... so no two threads send the same one.

local next_id = 0

function setup(thread)
  thread:set("id", next_id)
  next_id = next_id + 1
end

local prefix
local queries = {}
local index = 0
local step = 1

function init(args)
  prefix = args[1]
  for line in io.lines(args[2]) do
    queries[#queries + 1] = line
  end
  step = tonumber(args[4])
  index = tonumber(args[3]) + id
end

function request()
  local query = queries[(index % #queries) + 1]
  index = index + step
  return wrk.format("GET", prefix .. query)
end
