-- Drives `cuda-advisor lsp` from a real Neovim (0.7 or newer), headless:
--   nvim --headless -u NONE -c 'luafile nvim-lsp.lua'
-- with, in the environment:
--   CA_SERVER   the server command line (words separated by spaces)
--   CA_FILE     the source to open (a copy: it is edited and saved)
--   CA_LINE     the 1-based line of the finding whose code action to apply
--   CA_EXPECT   text that line must hold once the action is applied and saved
-- It opens the file, waits for the diagnostics, asks for the code actions on
-- CA_LINE, applies the first one's workspace edit, saves, waits for the
-- analysis of the saved text, and checks the file on disk and the new
-- diagnostics (one fewer, none left on CA_LINE). Prints what it saw and exits
-- 0 only when every check holds.
local function say(fmt, ...)
  io.stdout:write(string.format(fmt, ...) .. '\n')
  io.stdout:flush()
end
local function finish(code)
  vim.cmd(code == 0 and 'qall!' or ('cquit ' .. code))
end
local function fail(fmt, ...)
  say('FAIL: ' .. fmt, ...)
  finish(1)
end

local ok, err = pcall(function()
  local file = os.getenv('CA_FILE')
  local line = tonumber(os.getenv('CA_LINE'))
  local expect = os.getenv('CA_EXPECT')
  local cmd = vim.split(os.getenv('CA_SERVER'), ' ', { trimempty = true })

  -- Every publishDiagnostics the server sends, in order.
  local published = {}
  local client_id = vim.lsp.start_client({
    name = 'cuda-advisor',
    cmd = cmd,
    root_dir = vim.fn.fnamemodify(file, ':h'),
    handlers = {
      ['textDocument/publishDiagnostics'] = function(err, result, ctx, config)
        table.insert(published, result)
        return vim.lsp.diagnostic.on_publish_diagnostics(err, result, ctx, config)
      end,
    },
  })
  if not client_id then
    return fail('the server did not start')
  end
  vim.cmd('edit ' .. vim.fn.fnameescape(file))
  local buf = vim.api.nvim_get_current_buf()
  vim.lsp.buf_attach_client(buf, client_id)

  if not vim.wait(60000, function() return #published >= 1 end, 50) then
    return fail('no diagnostics within 60 s')
  end
  local first = published[#published].diagnostics
  say('diagnostics after open: %d', #first)
  local target
  for _, d in ipairs(first) do
    say('  %d:%d %s %s', d.range.start.line + 1, d.range.start.character + 1, d.code, d.message:sub(1, 60))
    if d.range.start.line + 1 == line and not target then
      target = d
    end
  end
  if not target then
    return fail('no diagnostic on line %d', line)
  end

  local client = vim.lsp.get_client_by_id(client_id)
  local response = client.request_sync('textDocument/codeAction', {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    range = target.range,
    context = { diagnostics = { target } },
  }, 10000, buf)
  if not response or response.err or not response.result or #response.result == 0 then
    return fail('no code action on line %d', line)
  end
  local action = response.result[1]
  say('code action: %s', action.title)
  vim.lsp.util.apply_workspace_edit(action.edit, client.offset_encoding or 'utf-16')

  local before = #published
  vim.cmd('write')
  -- The edit and the save each ask for an analysis; wait for the one of the
  -- saved text (the newest version) to arrive.
  local function settled()
    if #published <= before then
      return false
    end
    local last = published[#published]
    return last.version == nil or last.version >= vim.lsp.util.buf_versions[buf]
  end
  if not vim.wait(60000, settled, 50) then
    return fail('no new diagnostics within 60 s of the save')
  end
  -- Anything still in flight for an older version would be dropped.
  vim.wait(500, function() return false end, 50)
  local after = published[#published].diagnostics

  local disk = vim.fn.readfile(file)
  say('line %d on disk: %s', line, vim.trim(disk[line] or ''))
  say('diagnostics after save: %d', #after)
  if not string.find(disk[line] or '', expect, 1, true) then
    return fail('line %d does not hold %q', line, expect)
  end
  if #after ~= #first - 1 then
    return fail('expected %d diagnostics after the fix, got %d', #first - 1, #after)
  end
  for _, d in ipairs(after) do
    if d.range.start.line + 1 == line and d.code == target.code then
      return fail('the fixed line still has a %s diagnostic', d.code)
    end
  end
  say('PASS')
  finish(0)
end)
if not ok then
  fail('%s', tostring(err))
end
