import { describe, expect, it } from 'vitest'
import { assert, AssertionError, unreachable } from './assert.ts'
import { AppError } from './errors.ts'

describe('assert', () => {
  it.each([
    ['true', true],
    ['a non-empty string', 'x'],
    ['a number', 1],
    ['an object', {}],
  ])('passes for %s', (_, condition) => {
    expect(() => assert(condition, 'holds')).not.toThrow()
  })

  it.each([
    ['false', false],
    ['undefined', undefined],
    ['null', null],
    ['zero', 0],
    ['an empty string', ''],
  ])('throws an AssertionError, never an AppError, for %s', (_, condition) => {
    const thrown = (() => {
      try {
        assert(condition, 'member row read inside its own transaction')
      } catch (error) {
        return error
      }
      return undefined
    })()
    expect(thrown).toBeInstanceOf(AssertionError)
    expect(thrown).toBeInstanceOf(Error)
    expect(thrown).not.toBeInstanceOf(AppError)
    expect((thrown as Error).name).toBe('AssertionError')
    expect((thrown as Error).message).toBe('assertion failed: member row read inside its own transaction')
  })

  it('narrows the type it asserts', () => {
    const value: string | undefined = ['a'].at(0)
    assert(value !== undefined, 'the list has an element')
    expect(value.length).toBe(1)
  })
})

describe('unreachable', () => {
  type Shape = { kind: 'circle' } | { kind: 'square' }
  const area = (shape: Shape): string => {
    switch (shape.kind) {
      case 'circle':
        return 'round'
      case 'square':
        return 'straight'
      default:
        return unreachable(shape)
    }
  }

  it('is never reached for the cases the type allows', () => {
    expect(area({ kind: 'circle' })).toBe('round')
    expect(area({ kind: 'square' })).toBe('straight')
  })

  it('throws an AssertionError naming the value when a case the type rules out arrives anyway', () => {
    expect(() => area({ kind: 'triangle' } as unknown as Shape)).toThrow(new AssertionError('unreachable case reached with {"kind":"triangle"}'))
  })

  it('describes a value JSON cannot carry', () => {
    const circular: Record<string, unknown> = {}
    circular.self = circular
    expect(() => unreachable(circular as never)).toThrow(AssertionError)
    expect(() => unreachable(undefined as never)).toThrow('unreachable case reached with undefined')
  })
})
