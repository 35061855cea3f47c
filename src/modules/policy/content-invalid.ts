import { AppError } from '../../kernel/errors.ts'

/**
 * Validation issues of policy content (compose's `content`, simulate-historical's `policy_content`) as
 * the envelope's details.issues: paths under the body field, keyword = the issue code.
 */
export function contentInvalid(prefix: string, issues: ReadonlyArray<{ path: string; message: string; code?: string }>): AppError {
  return new AppError('request_body_invalid', 'The policy content is invalid.', {
    issues: issues.map((issue) => ({
      path: issue.path === '' || issue.path === '/' ? prefix : `${prefix}${issue.path.startsWith('/') ? '' : '/'}${issue.path}`,
      message: issue.message,
      keyword: issue.code ?? 'policy',
    })),
  })
}
