/**
 * A picture the owner picked for the crop dialog (the profile picture, a music release's cover):
 * checked by its size and name, then by its first bytes (the name and declared type can lie; the
 * first bytes cannot), and shown from an object URL until the dialog closes.
 */
import { useState, type RefObject } from "react";
import { INVALID_PICTURE, pictureFileError, sniffImageType } from "#core/profile.ts";
import { toast } from "../../toast.tsx";

export function usePickedPicture(input: RefObject<HTMLInputElement | null>) {
  const [src, setSrc] = useState<string | null>(null);
  // Once loaded the crop dialog stays mounted, so closing it returns focus as any dialog does.
  const [wanted, setWanted] = useState(false);
  if (src !== null && !wanted) setWanted(true);

  function close() {
    if (src) URL.revokeObjectURL(src);
    setSrc(null);
  }
  /** The file checked, then the crop dialog opened with it; `opening` runs just before. */
  async function pick(file: File | undefined, opening?: () => void) {
    if (input.current) input.current.value = "";
    if (!file) return;
    const problem = pictureFileError(file);
    if (problem) return void toast.error(problem.title, { description: problem.text });
    if (!sniffImageType(new Uint8Array(await file.slice(0, 16).arrayBuffer()))) return void toast.error(INVALID_PICTURE.title, { description: INVALID_PICTURE.text });
    opening?.();
    setSrc(URL.createObjectURL(file));
  }
  /** The crop dialog could not read the picture after all. */
  function unreadable() {
    close();
    toast.error(INVALID_PICTURE.title, { description: INVALID_PICTURE.text });
  }
  return { src, wanted, close, pick, unreadable };
}
