import { useWizardFiles } from '../hooks/wizard-contexts';

/** DESIGN rule 9: while the order is sent, each new file shows its upload progress (on whatever step is open). */
export function UploadProgress() {
  const { files } = useWizardFiles();
  const uploading = files.filter((f) => !f.remote && f.progress !== null);
  if (uploading.length === 0) return null;
  return (
    <ul className="flex flex-col gap-2" aria-label="Uploads">
      {uploading.map((f) =>
        f.remote ? null : (
          <li key={f.key} className="flex flex-col gap-1 text-sm">
            <span>
              {f.name} — {f.progress}%
            </span>
            <progress className="h-2 w-full accent-primary" max={100} value={f.progress ?? 0} aria-label={`Uploading ${f.name}`} />
          </li>
        ),
      )}
    </ul>
  );
}
