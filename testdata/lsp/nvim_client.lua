-- A headless Neovim 0.7 session that drives `cudaforklint server` as a user
-- would (.ci/nvim-lsp-test.sh runs it): open a hazard, wait for the
-- diagnostic at the right range, apply the quick fix, check the buffer,
-- break the file again, edit it clean by hand and see the diagnostic go;
-- type a syntax error and see it reported, then repaired.
--
-- Environment: CFL_BIN (the cudaforklint binary), CFL_WORKSPACE (a copy of
-- testdata/lsp/workspace), CFL_RESULT (where the JSON report goes).
-- Neovim 0.7 has no vim.lsp.start (0.8): start_client + buf_attach_client.

local bin = assert(os.getenv('CFL_BIN'), 'CFL_BIN is not set')
local ws = assert(os.getenv('CFL_WORKSPACE'), 'CFL_WORKSPACE is not set')
local out = assert(os.getenv('CFL_RESULT'), 'CFL_RESULT is not set')

local report = { ok = false, steps = {} }

local function step(name, detail)
  table.insert(report.steps, { step = name, detail = detail })
end

local function wait_diagnostics(pred, what)
  local ok = vim.wait(30000, function() return pred(vim.diagnostic.get(0)) end, 50)
  if not ok then
    error(what .. ': timed out; diagnostics now: ' .. vim.inspect(vim.diagnostic.get(0)))
  end
  return vim.diagnostic.get(0)
end

-- In 0.7 the LSP code is in user_data.lsp.code.
local function code_of(d)
  return d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
end

local function run()
  vim.cmd('edit ' .. vim.fn.fnameescape(ws .. '/train.py'))
  local bufnr = vim.api.nvim_get_current_buf()
  local id = vim.lsp.start_client({
    name = 'cudaforklint',
    cmd = { bin, 'server' },
    root_dir = ws,
    init_options = { debounceMs = 50 },
    flags = { debounce_text_changes = 0 },
  })
  assert(id, 'start_client failed')
  assert(vim.lsp.buf_attach_client(bufnr, id), 'buf_attach_client failed')
  local client = vim.lsp.get_client_by_id(id)

  -- 1. The diagnostic, at `torch.cuda.init()` (line 11, columns 5-22).
  local diags = wait_diagnostics(function(ds) return #ds > 0 end, 'diagnostic on open')
  local d = diags[1]
  if #diags ~= 1 or code_of(d) ~= 'CFL001' or d.lnum ~= 10 or d.col ~= 4 or d.end_lnum ~= 10
      or d.end_col ~= 21 or d.severity ~= vim.diagnostic.severity.ERROR or d.source ~= 'cudaforklint' then
    error('unexpected diagnostics on open: ' .. vim.inspect(diags))
  end
  step('diagnostic on open', { code = code_of(d), lnum = d.lnum, col = d.col, end_col = d.end_col })

  -- 2. The code actions under the cursor; apply the spawn fix.
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    range = { start = { line = 10, character = 8 }, ['end'] = { line = 10, character = 8 } },
    context = { diagnostics = {} },
  }
  local resp, err = client.request_sync('textDocument/codeAction', params, 30000, bufnr)
  if not resp or resp.err then
    error('codeAction failed: ' .. vim.inspect(err or resp))
  end
  local titles, fix = {}, nil
  for _, a in ipairs(resp.result or {}) do
    table.insert(titles, a.title)
    if a.title == "Use the \"spawn\" start method; the children's arguments must pickle (unsafe)" then fix = a end
  end
  if not fix or not vim.tbl_contains(titles, 'Disable CFL001 for this line') then
    error('unexpected code actions: ' .. vim.inspect(titles))
  end
  step('code actions', titles)
  vim.lsp.util.apply_workspace_edit(fix.edit, client.offset_encoding)
  local line12 = vim.api.nvim_buf_get_lines(bufnr, 11, 12, true)[1]
  if line12 ~= '    p = mp.get_context("spawn").Process(target=child)' then
    error('the fix left line 12 as ' .. vim.inspect(line12))
  end
  step('quick fix applied', line12)
  wait_diagnostics(function(ds) return #ds == 0 end, 'diagnostic gone after the fix')
  step('diagnostic gone after the fix')

  -- 3. Break it again by hand, then edit it clean by hand.
  vim.api.nvim_buf_set_lines(bufnr, 11, 12, true, { '    p = mp.get_context("fork").Process(target=child)' })
  wait_diagnostics(function(ds) return #ds == 1 end, 'diagnostic back after the edit')
  step('diagnostic back after an edit')
  vim.api.nvim_buf_set_lines(bufnr, 10, 11, true, { '    pass' })
  wait_diagnostics(function(ds) return #ds == 0 end, 'diagnostic gone after the clean edit')
  step('diagnostic gone after a clean edit')

  -- 4. A syntax error typed in: an error coded SyntaxError from where the
  -- parser's error recovery puts it (within the statement; where exactly
  -- depends on the code around it) to the end of the line; gone once the
  -- line parses.
  vim.api.nvim_buf_set_lines(bufnr, 10, 11, true, { '    x = 1 +* 2' })
  local se = wait_diagnostics(function(ds) return #ds > 0 end, 'syntax error after a broken edit')
  local s = se[1]
  if #se ~= 1 or code_of(s) ~= 'SyntaxError' or s.lnum ~= 10 or s.col < 4 or s.col >= 14 or s.end_col ~= 14
      or s.severity ~= vim.diagnostic.severity.ERROR then
    error('unexpected diagnostics for the syntax error: ' .. vim.inspect(se))
  end
  step('syntax error published', { code = code_of(s), lnum = s.lnum, col = s.col, end_col = s.end_col })
  vim.api.nvim_buf_set_lines(bufnr, 10, 11, true, { '    x = 1 + 2' })
  wait_diagnostics(function(ds) return #ds == 0 end, 'syntax error gone after the repair')
  step('syntax error gone after the repair')

  vim.lsp.stop_client(id)
  report.ok = true
end

local ok, err = pcall(run)
if not ok then
  report.error = tostring(err)
end
local f = assert(io.open(out, 'w'))
f:write(vim.fn.json_encode(report))
f:close()
if ok then
  vim.cmd('qall!')
else
  vim.cmd('cquit 1')
end
