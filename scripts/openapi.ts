/**
 * `npm run openapi [-- <file>]`: writes the OpenAPI 3.1 document the service serves at /v1/openapi.json
 * (to stdout, or to <file>), built from the same app on a throwaway in-memory PGlite database, so it
 * needs no running server and no configuration. PUBLIC_BASE_URL sets its `servers` entry.
 */
import { writeFileSync } from 'node:fs'
import { documentText, generateOpenApiDocument } from './openapi-document.ts'

const output = process.argv[2]
const document = documentText(await generateOpenApiDocument(process.env.PUBLIC_BASE_URL === undefined ? {} : { publicBaseUrl: process.env.PUBLIC_BASE_URL }))
if (output === undefined) process.stdout.write(document)
else writeFileSync(output, document)
