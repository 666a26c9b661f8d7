/**
 * 'Crop Your Profile Picture': a fixed viewport (400 px square, or a full-width picture's own aspect:
 * portrait 3:4, square, landscape 16:9)
 * the image always covers, a zoom from the initial scale (the shorter side fits) to 3 in steps of
 * 0.1, pinch and drag on touch, wheel and drag with a mouse, arrow keys on the crop area.
 */
import { useEffect, useState } from "react";
import Cropper, { type Area } from "react-easy-crop";
import { LIMITS } from "#core/limits.ts";
import { FULLWIDTH_ASPECTS, type PictureShape } from "#core/profile.ts";
import type { FullwidthSubtype } from "#core/themes.ts";
import { Button } from "../../components/button.tsx";
import { Modal } from "../../components/modal.tsx";

const MIN_ZOOM = 1;

function useCoarsePointer(): boolean {
  const [coarse, setCoarse] = useState(() => typeof window !== "undefined" && window.matchMedia("(pointer: coarse)").matches);
  useEffect(() => {
    const mq = window.matchMedia("(pointer: coarse)");
    const on = () => setCoarse(mq.matches);
    mq.addEventListener("change", on);
    return () => mq.removeEventListener("change", on);
  }, []);
  return coarse;
}

export function CropDialog(props: {
  src: string | null;
  shape: PictureShape;
  fullwidthHeight: FullwidthSubtype;
  busy: boolean;
  onCancel(): void;
  onSave(area: Area): void;
  onUnreadable(): void;
  /** The dialog's title: the profile picture's by default; a music release's cover uses its own. */
  title?: string;
  /** A square picture is framed in a circle (the profile icon) unless `square` asks for the square itself. */
  square?: boolean;
}) {
  const { src, shape, fullwidthHeight, busy, onCancel, onSave, onUnreadable, title = "Crop Your Profile Picture", square = false } = props;
  const [crop, setCrop] = useState({ x: 0, y: 0 });
  const [zoom, setZoom] = useState(MIN_ZOOM);
  const [area, setArea] = useState<Area | null>(null);
  const coarse = useCoarsePointer();
  const aspect = shape === "full_width" ? FULLWIDTH_ASPECTS[fullwidthHeight] : 1;

  useEffect(() => {
    setCrop({ x: 0, y: 0 });
    setZoom(MIN_ZOOM);
    setArea(null);
  }, [src]);

  return (
    <Modal
      open={src !== null}
      onOpenChange={(o) => !o && !busy && onCancel()}
      // Moved or zoomed: Escape or a click outside asks before the framing is lost (ADR 140).
      dirty={zoom !== MIN_ZOOM || crop.x !== 0 || crop.y !== 0}
      title={title}
    >
      {src ? (
        <div>
          <div
            className="relative mx-auto w-full overflow-hidden rounded-md bg-slate-900"
            style={{ maxWidth: LIMITS.CROPPER_VIEWPORT_PX, aspectRatio: String(aspect) }}
            data-testid="crop-area"
          >
            <Cropper
              image={src}
              crop={crop}
              zoom={zoom}
              aspect={aspect}
              minZoom={MIN_ZOOM}
              maxZoom={LIMITS.CROPPER_ZOOM_MAX}
              objectFit="cover"
              cropShape={shape === "full_width" || square ? "rect" : "round"}
              showGrid={false}
              restrictPosition
              onCropChange={setCrop}
              onZoomChange={setZoom}
              onCropComplete={(_, pixels) => setArea(pixels)}
              mediaProps={{ alt: "The picture you chose", onError: onUnreadable } as never}
              cropperProps={{ role: "group", "aria-label": "Crop area: drag or use the arrow keys to move the picture" } as never}
            />
          </div>
          <p className="mt-3 text-sm text-slate-600">
            {coarse ? "Pinch to zoom and drag to move your picture." : "Use the mouse wheel or the slider to zoom, and drag to move your picture."}
          </p>
          <label className="mt-3 block text-sm font-medium" htmlFor="crop-zoom">
            Zoom
          </label>
          <input
            id="crop-zoom"
            type="range"
            min={MIN_ZOOM}
            max={LIMITS.CROPPER_ZOOM_MAX}
            step={LIMITS.CROPPER_ZOOM_STEP}
            value={zoom}
            onChange={(e) => setZoom(Number(e.target.value))}
            className="w-full accent-brand-600"
          />
          <div className="mt-4 flex flex-wrap justify-end gap-2">
            <Button variant="secondary" onClick={onCancel} disabled={busy}>
              Cancel
            </Button>
            <Button onClick={() => area && onSave(area)} disabled={!area || busy}>
              {busy ? "Saving..." : "Save"}
            </Button>
          </div>
        </div>
      ) : null}
    </Modal>
  );
}
