import { fileExtension, uploadPublicFile } from '#web/lib/upload-with-progress.ts';

/** Uploads a product image to the product-images bucket with progress; resolves to its public URL. */
export function uploadProductImage(file: File, onProgress: (fraction: number) => void): Promise<string> {
  return uploadPublicFile(
    'product-images',
    `products/${crypto.randomUUID()}.${fileExtension(file.name)}`,
    file,
    onProgress,
  );
}
