import type { Route } from '../../../http/routes.ts';
import type { PostsDeps } from '../posts.ts';
import adminPostPreview from './admin-post-preview.ts';
import adminPostSave from './admin-post-save.ts';

/** The posts functions under /functions/v1, one file each, named as clients call them (decision 088). */
export const ROUTES: Route<{ posts: PostsDeps }>[] = [adminPostPreview, adminPostSave];
