import type { Route } from '../../http/routes.ts';
import type { AuthDeps } from '../auth.ts';
import adminCreateUser from './admin-create-user.ts';
import adminDeleteFactor from './admin-delete-factor.ts';
import adminDeleteUser from './admin-delete-user.ts';
import adminGenerateLink from './admin-generate-link.ts';
import adminGetUser from './admin-get-user.ts';
import adminListFactors from './admin-list-factors.ts';
import adminListUsers from './admin-list-users.ts';
import adminPasskeys from './admin-passkeys.ts';
import adminUpdateUser from './admin-update-user.ts';
import authorize from './authorize.ts';
import callback from './callback.ts';
import challengeFactor from './factor-challenge.ts';
import deleteFactor from './factor-delete.ts';
import verifyFactor from './factor-verify.ts';
import enrollFactor from './factors-enroll.ts';
import getUser from './get-user.ts';
import health from './health.ts';
import invite from './invite.ts';
import jwks from './jwks.ts';
import linkIdentity from './link-identity.ts';
import logout from './logout.ts';
import otp from './otp.ts';
import passkeys from './passkeys.ts';
import putUser from './put-user.ts';
import reauthenticate from './reauthenticate.ts';
import recover from './recover.ts';
import resend from './resend.ts';
import settings from './settings.ts';
import signup from './signup.ts';
import sso from './sso.ts';
import token from './token.ts';
import unlinkIdentity from './unlink-identity.ts';
import verify from './verify.ts';
import verifyLink from './verify-link.ts';

/** Every /auth/v1 endpoint, one file each (decision 088). */
export const ROUTES: Route<AuthDeps>[] = [
  health,
  settings,
  jwks,
  signup,
  token,
  otp,
  verify,
  verifyLink,
  resend,
  recover,
  sso,
  logout,
  getUser,
  putUser,
  reauthenticate,
  linkIdentity,
  unlinkIdentity,
  enrollFactor,
  challengeFactor,
  verifyFactor,
  deleteFactor,
  passkeys,
  authorize,
  callback,
  invite,
  adminGenerateLink,
  adminListUsers,
  adminCreateUser,
  adminGetUser,
  adminUpdateUser,
  adminDeleteUser,
  adminListFactors,
  adminDeleteFactor,
  adminPasskeys,
];
