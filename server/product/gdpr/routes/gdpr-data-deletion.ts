import type { FastifyInstance } from 'fastify';
import { FunctionErrors } from '../../../functions/errors.ts';
import { callerOf, noStore, refuseOtherMethods } from '../../../functions/http.ts';
import type { PaymentsDeps } from '../../payments/payments.ts';
import { stopBillingBeforeDeletion } from '../../payments/payments.ts';
import type { DeletionDeps } from '../account-deletion.ts';
import { deleteAccount } from '../account-deletion.ts';

const URL = '/gdpr-data-deletion';

export const DELETION_MESSAGE =
  'Your account and all associated data have been permanently deleted. We are sorry to see you go.';

/**
 * DELETE /functions/v1/gdpr-data-deletion with {"confirm_deletion": true} — erases the caller's
 * account, data and files, all or nothing (product §server-functions, decision 072). The confirmation must be
 * exactly the JSON value true; anything else in the body (another user's id included) is ignored.
 */
export default function gdprDataDeletion(
  app: FastifyInstance,
  deps: { deletion: DeletionDeps; payments: PaymentsDeps },
): void {
  app.delete(URL, { config: { functionUser: true } }, async (request, reply) => {
    const body = request.body;
    if (body === undefined || body === null) throw FunctionErrors.confirmationRequired();
    if (typeof body !== 'object' || Array.isArray(body)) throw FunctionErrors.bodyNotObject();
    if ((body as Record<string, unknown>).confirm_deletion !== true)
      throw FunctionErrors.confirmationRequired();
    // A paid subscription stops billing first (decision 132); if it cannot, nothing is deleted.
    await stopBillingBeforeDeletion(deps.payments, callerOf(request).userId);
    await deleteAccount(deps.deletion, callerOf(request).userId);
    return noStore(reply).type('application/json; charset=utf-8').send({ message: DELETION_MESSAGE });
  });
  refuseOtherMethods(app, URL, 'DELETE');
}
