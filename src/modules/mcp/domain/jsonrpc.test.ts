import { describe, expect, it } from 'vitest'
import { checkMessage } from './jsonrpc.ts'

describe('checkMessage', () => {
  it.each([
    [{ jsonrpc: '2.0', id: 1, method: 'ping' }],
    [{ jsonrpc: '2.0', id: 'a', method: 'tools/list', params: { cursor: 'c' } }],
    [{ jsonrpc: '2.0', method: 'notifications/initialized' }],
    [{ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'x' } }],
    [{ jsonrpc: '2.0', id: 2, method: 'prompts/get', params: { name: 'x', arguments: { a: 'b' } } }],
    [{ jsonrpc: '2.0', id: 3, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } } }],
    [{ jsonrpc: '2.0', id: 4, method: 'anything/else', params: { whatever: [1] } }],
  ])('accepts %j', (message) => {
    expect(checkMessage(message).ok).toBe(true)
  })

  it.each([
    [null, -32600, null],
    [[{ jsonrpc: '2.0', id: 1, method: 'ping' }], -32600, null],
    ['text', -32600, null],
    [{ jsonrpc: '2.0', id: 1.5, method: 'ping' }, -32600, null],
    [{ jsonrpc: '2.0', id: null, method: 'ping' }, -32600, null],
    [{ jsonrpc: '1.0', id: 1, method: 'ping' }, -32600, 1],
    [{ jsonrpc: '2.0', id: 1, method: '' }, -32600, 1],
    [{ jsonrpc: '2.0', id: 1, result: {} }, -32600, 1],
    [{ jsonrpc: '2.0', id: 1, method: 'ping', params: [1] }, -32602, 1],
    [{ jsonrpc: '2.0', id: 1, method: 'ping', extra: true }, -32600, 1],
    [{ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 1 } }, -32602, 1],
    [{ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x', arguments: 'a' } }, -32602, 1],
    [{ jsonrpc: '2.0', id: 1, method: 'resources/read', params: {} }, -32602, 1],
    [{ jsonrpc: '2.0', id: 1, method: 'prompts/get', params: { name: 'x', arguments: { a: 1 } } }, -32602, 1],
    [{ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { cursor: 5 } }, -32602, 1],
    [{ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '1', capabilities: {}, clientInfo: { name: 'c' } } }, -32602, 1],
  ])('refuses %j with %i', (message, code, id) => {
    expect(checkMessage(message)).toMatchObject({ ok: false, code, id })
  })
})
