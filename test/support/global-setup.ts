/**
 * On PostgreSQL (TEST_DATABASE_URL set): creates a fresh, uniquely named database for this run and
 * points the tests at it through STEWARD_TEST_DATABASE_URL; drops it afterwards. Runs on the same server
 * therefore never see each other's rows, and a crashed run leaves nothing that breaks the next.
 */
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import type { TestProject } from 'vitest/node'

export default async function setup(project: TestProject) {
  const serverUrl = process.env.TEST_DATABASE_URL
  if (serverUrl === undefined || serverUrl === '') return
  const name = `steward_test_${Date.now()}_${randomBytes(3).toString('hex')}`
  const admin = new pg.Client({ connectionString: serverUrl })
  await admin.connect()
  await admin.query(`create database ${name}`)
  await admin.end()
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  process.env.STEWARD_TEST_DATABASE_URL = url.toString()
  project.provide('testDatabaseUrl', url.toString())

  return async () => {
    const cleanup = new pg.Client({ connectionString: serverUrl })
    await cleanup.connect()
    await cleanup.query(`drop database if exists ${name} with (force)`)
    await cleanup.end()
  }
}

declare module 'vitest' {
  export interface ProvidedContext {
    testDatabaseUrl: string | undefined
  }
}
