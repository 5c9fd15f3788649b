import type { Route } from '../../http/routes.ts';
import type { StorageDeps } from '../storage.ts';
import copyObject from './copy-object.ts';
import createBucket from './create-bucket.ts';
import createObject from './create-object.ts';
import createSignedUploadUrl from './create-signed-upload-url.ts';
import createSignedUrl from './create-signed-url.ts';
import createSignedUrls from './create-signed-urls.ts';
import deleteBucket from './delete-bucket.ts';
import deleteObject from './delete-object.ts';
import deleteObjects from './delete-objects.ts';
import emptyBucket from './empty-bucket.ts';
import getBucket from './get-bucket.ts';
import getObject from './get-object.ts';
import getObjectInfo from './get-object-info.ts';
import getPublicObject from './get-public-object.ts';
import getSignedObject from './get-signed-object.ts';
import listBuckets from './list-buckets.ts';
import listObjects from './list-objects.ts';
import listObjectsV2 from './list-objects-v2.ts';
import moveObject from './move-object.ts';
import renderAuthenticatedImage from './render-authenticated-image.ts';
import renderPublicImage from './render-public-image.ts';
import renderSignedImage from './render-signed-image.ts';
import updateBucket from './update-bucket.ts';
import updateObject from './update-object.ts';
import uploadToSignedUrl from './upload-to-signed-url.ts';

/** Every /storage/v1 endpoint with a JSON (or no) body, one file each (decision 088). */
export const ROUTES: Route<StorageDeps>[] = [
  listBuckets,
  getBucket,
  createBucket,
  updateBucket,
  emptyBucket,
  deleteBucket,
  createSignedUploadUrl,
  moveObject,
  copyObject,
  createSignedUrl,
  createSignedUrls,
  getSignedObject,
  getPublicObject,
  getObjectInfo,
  getObject,
  renderPublicImage,
  renderAuthenticatedImage,
  renderSignedImage,
  listObjects,
  listObjectsV2,
  deleteObjects,
  deleteObject,
];

/** The endpoints whose body is a file, read as a stream (registered with a pass-through parser). */
export const UPLOAD_ROUTES: Route<StorageDeps>[] = [createObject, updateObject, uploadToSignedUrl];
