/**
 * A database of its own on the run's PostgreSQL server, for a test whose worker processes sweep every
 * tenant (the execution sweeper, for one): on the run's shared database they would take up rows other test
 * files, running at the same time, left for their own workers. Created empty (the runtime migrates it on
 * open) and dropped, connections and all, by `drop`.
 */
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { testDatabaseUrl } from './harness.ts'

export interface IsolatedDatabase {
  readonly url: string
  drop(): Promise<void>
}

async function onServer(serverUrl: string, statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl })
  await admin.connect()
  try {
    await admin.query(statement)
  } finally {
    await admin.end()
  }
}

/** A fresh database beside the run's one; PostgreSQL only. */
export async function isolatedDatabase(label: string): Promise<IsolatedDatabase> {
  const serverUrl = testDatabaseUrl()
  if (serverUrl === undefined) throw new Error('isolatedDatabase needs PostgreSQL (TEST_DATABASE_URL)')
  if (!/^[a-z_]{1,20}$/.test(label)) throw new Error(`isolatedDatabase: label ${label} is not a short lowercase identifier`)
  const name = `${new URL(serverUrl).pathname.slice(1)}_${label}_${randomBytes(3).toString('hex')}`.slice(0, 63)
  await onServer(serverUrl, `create database ${name}`)
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    drop: () => onServer(serverUrl, `drop database if exists ${name} with (force)`),
  }
}
